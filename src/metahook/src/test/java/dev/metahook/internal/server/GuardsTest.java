package dev.metahook.internal.server;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.api.Result;
import dev.metahook.api.Controllers;
import dev.metahook.testing.Requests;
import dev.metahook.testing.TestServer;
import dev.metahook.testing.Widget;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.restassured.response.ValidatableResponse;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.hamcrest.Matcher;

/** Each guard refuses a response Metacontroller would fail on or that would do harm: a 500 naming rule and child ({@code rule: detail}). */
class GuardsTest {
    @RegisterExtension
    static final TestServer server = TestServer.of(() -> Controllers.builder()
                .composite("no-kind", Widget.class, (w, c) -> Result.of(unnamedKind(w)).deletingUnlisted())
                .composite("no-name", Widget.class, (w, c) -> Result.of(new ConfigMap()).deletingUnlisted())
                .composite("undeclared", Widget.class, (w, c) -> Result.of(new SecretBuilder()
                        .withNewMetadata().withName("s").endMetadata().build()).deletingUnlisted())
                .composite("wrong-version", Widget.class, (w, c) -> Result.of(configMap(w, "v2")).deletingUnlisted())
                .composite("other-namespace", Widget.class, (w, c) -> Result.of(new ConfigMapBuilder()
                        .withNewMetadata().withName("cm").withNamespace("kube-system").endMetadata().build()).deletingUnlisted())
                .composite("server-fields", Widget.class, (w, c) -> Result.of(new ConfigMapBuilder()
                        .withMetadata(new ObjectMetaBuilder().withName("cm").withUid("u").withResourceVersion("1")
                                .withCreationTimestamp("2026-01-01T00:00:00Z").build()).build()).deletingUnlisted())
                .composite("with-status", Widget.class, (w, c) -> Result.of(withStatus()).deletingUnlisted())
                .composite("omits", Widget.class, (w, c) -> Result.of())
                .composite("duplicate", Widget.class, (w, c) -> Result.of(configMap(w, "v1"), configMap(w, "v1")))
                .composite("deletes-kept", Widget.class, (w, c) -> Result.keepingObserved()
                        .deleting(c.children().all(ConfigMap.class).toArray(new ConfigMap[0])))
                .composite("status-list", Widget.class, (w, c) -> Result.of().withStatus(List.of(1, 2)))
                .composite("selector", Widget.class, (w, c) -> Result.of(configMap(w, "v1")))
                .composite("null-item", Widget.class, (w, c) -> Result.of(new ConfigMapBuilder().withMetadata(new ObjectMetaBuilder()
                        .withName("cm").withFinalizers(Arrays.asList("keep", null)).build()).build()).deletingUnlisted())
                .build());

    private static ConfigMap configMap(Widget widget, String apiVersion) {
        ConfigMap map = new ConfigMapBuilder().withNewMetadata().withName(widget.getMetadata().getName()).endMetadata().build();
        map.setApiVersion(apiVersion);
        return map;
    }

    private static GenericKubernetesResource unnamedKind(Widget widget) {
        GenericKubernetesResource resource = new GenericKubernetesResource();
        resource.setApiVersion("v1");
        resource.setMetadata(new ObjectMetaBuilder().withName("x").build());
        return resource;
    }

    private static GenericKubernetesResource withStatus() {
        GenericKubernetesResource resource = new GenericKubernetesResource();
        resource.setApiVersion("v1");
        resource.setKind("ConfigMap");
        resource.setMetadata(new ObjectMetaBuilder().withName("cm").build());
        resource.setAdditionalProperty("status", Map.of("phase", "Ready"));
        return resource;
    }

    private static ValidatableResponse refused(String controller, ObjectNode request) {
        return server.post("/" + controller + "/sync", Requests.bytes(request))
                .statusCode(500)
                .contentType("application/problem+json")
                .body("type", equalTo("urn:metahook:problem:response-refused"));
    }

    private static ObjectNode plainSync() {
        return Requests.sync(Requests.widget("hello", 1, "hi"), List.of(), false);
    }

    private static Matcher<Iterable<? super String>> violation(String text) {
        return hasItem(containsString(text));
    }

    @Test
    void refusesChildWithoutKind() {
        refused("no-kind", plainSync()).body("violations", violation("missing-kind: child #0 (x): has no kind"));
    }

    @Test
    void refusesChildWithoutName() {
        refused("no-name", plainSync()).body("violations", violation("missing-name: child #0 (ConfigMap): has no metadata.name"));
    }

    @Test
    void refusesKindNotDeclaredInChildResources() {
        refused("undeclared", plainSync()).body("violations", violation("undeclared: child Secret s: Secret.v1 is not declared"));
    }

    @Test
    void refusesApiVersionNotDeclared() {
        refused("wrong-version", plainSync()).body("violations", violation("ConfigMap.v2 is not declared"));
    }

    @Test
    void refusesChildInAnotherNamespace() {
        refused("other-namespace", plainSync())
                .body("violations", violation("namespace: child ConfigMap cm: is in namespace kube-system but the parent is in default"));
    }

    @Test
    void refusesServerManagedMetadata() {
        refused("server-fields", plainSync())
                .body("violations", violation("sets metadata.uid"))
                .body("violations", violation("sets metadata.resourceVersion"))
                .body("violations", violation("sets metadata.creationTimestamp"));
    }

    @Test
    void refusesChildStatus() {
        refused("with-status", plainSync()).body("violations", violation("server-field: child ConfigMap cm: sets status"));
    }

    @Test
    void refusesOmittingAnObservedChildWithoutSayingItGoes() {
        ObjectNode request = Requests.sync(Requests.widget("hello", 1, "hi"),
                List.of(Requests.observedConfigMap("hello", 1, "hi")), false);
        refused("omits", request).body("violations", violation("deletes-children: observed child ConfigMap.v1 default/hello: is left out"));
    }

    @Test
    void refusesTheSameChildTwice() {
        refused("duplicate", plainSync()).body("violations", violation("duplicate: child ConfigMap hello: appears twice"));
    }

    @Test
    void refusesDeletingAChildItAlsoKeeps() {
        ObjectNode request = Requests.sync(Requests.widget("hello", 1, "hi"),
                List.of(Requests.observedConfigMap("hello", 1, "hi")), false);
        refused("deletes-kept", request).body("violations", violation("deletes-kept: observed child ConfigMap.v1 default/hello: is both in the response and marked for deletion"));
    }

    @Test
    void namesTheNullValueRuleWhenAListHoldsANull() {
        refused("null-item", plainSync()).body("violations",
                equalTo(List.of("null-value: child ConfigMap cm: /metadata/finalizers/1 is a null list item")));
    }

    @Test
    void refusesAStatusThatIsNotAnObject() {
        refused("status-list", plainSync()).body("violations", violation("malformed: status is array, not an object"));
    }

    @Test
    void refusesLabelsThatMissTheParentSelector() {
        ObjectNode request = plainSync();
        request.set("controller", Requests.controller(false));
        request.withObjectProperty("parent").withObjectProperty("spec").putObject("selector").putObject("matchLabels").put("app", "widget");
        refused("selector", request).body("violations", violation("selector: child ConfigMap hello: labels"));
    }

    @Test
    void refusesAChildWhenTheParentHasNoSelectorAtAll() {
        ObjectNode request = plainSync();
        request.set("controller", Requests.controller(false));
        refused("selector", request).body("violations", violation("selector: child ConfigMap hello: the parent has no spec.selector"));
    }

    @Test
    void acceptsLabelsThatMatchTheParentSelector() {
        ObjectNode request = plainSync();
        request.set("controller", Requests.controller(false));
        request.withObjectProperty("parent").withObjectProperty("spec").putObject("selector").putArray("matchExpressions").addObject()
                .put("key", "app").put("operator", "DoesNotExist");
        server.post("/selector/sync", Requests.bytes(request)).statusCode(200);
    }
}
