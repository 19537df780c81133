package dev.metahook.controllers;

import static dev.metahook.controllers.ReferenceServer.child;
import static dev.metahook.controllers.ReferenceServer.conditions;
import static dev.metahook.testing.StoredObjects.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.controllers.webapp.WebApp;
import dev.metahook.testing.TestServer;
import dev.metahook.testkit.Answer;
import dev.metahook.testkit.HookTester;
import dev.metahook.testkit.Manifests;
import dev.metahook.internal.wire.Json;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceStatus;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatus;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * WebApp through the test kit (the engine that serves it, requests as Metacontroller sends them):
 * each row of its conditions table, its children, and what an invalid spec keeps.
 */
class WebAppTest {
    private static final String UID = ReferenceServer.WEBAPP_UID;
    private static final HookTester TESTER = HookTester.of(ReferenceServer.controllers(), "webapp",
            Path.of("metacontroller/webapp-controller.yaml")).withClock(TestServer.CLOCK);

    private static WebApp webApp() {
        WebApp webApp = Manifests.read(Path.of("examples/webapp.yaml"), WebApp.class);
        webApp.getMetadata().setUid(UID);
        return webApp;
    }

    /** The WebApp with one spec field set to any JSON value, the wrong type included. */
    private static GenericKubernetesResource withSpec(HasMetadata webApp, String field, Object value) {
        ObjectNode tree = (ObjectNode) Json.tree(webApp);
        if (value == null) {
            tree.remove("spec");
        } else {
            tree.withObjectProperty("spec").set(field, Json.tree(value));
        }
        return convert(tree, GenericKubernetesResource.class);
    }

    private static JsonNode sync(HasMetadata webApp, List<? extends HasMetadata> observed) {
        Answer answer = TESTER.sync(webApp).observing(observed).call();
        assertEquals(200, answer.code(), answer::toString);
        return Json.parse(answer.body());
    }

    /** The children of a first sync, observed with the given Deployment status. */
    private static List<HasMetadata> running(HasMetadata webApp, String deploymentStatus) {
        Answer first = TESTER.sync(webApp).call();
        Deployment deployment = first.child(Deployment.class, "hello").orElseThrow();
        deployment.setStatus(convert(json(deploymentStatus), DeploymentStatus.class));
        Service service = first.child(Service.class, "hello").orElseThrow();
        service.setStatus(convert(json("{'loadBalancer':{}}"), ServiceStatus.class));
        return new ArrayList<>(List.of(deployment, service));
    }

    private static <T> T convert(JsonNode tree, Class<T> type) {
        try {
            return Json.convert(tree, type);
        } catch (JsonProcessingException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void createsADeploymentAndAServiceAndSaysCreating() {
        JsonNode response = sync(webApp(), List.of());
        assertEquals("Ready=False/Creating Reconciling=True/Creating Stalled=False/Creating", conditions(response));
        assertEquals(json("{'apiVersion':'apps/v1','kind':'Deployment','metadata':{'labels':{'app.kubernetes.io/instance':'hello',"
                + "'app.kubernetes.io/managed-by':'metahook','app.kubernetes.io/name':'webapp'},'name':'hello','namespace':'default'},"
                + "'spec':{'replicas':2,'selector':{'matchLabels':{'app.kubernetes.io/instance':'hello','app.kubernetes.io/name':'webapp'}},"
                + "'template':{'metadata':{'labels':{'app.kubernetes.io/instance':'hello','app.kubernetes.io/name':'webapp'}},"
                + "'spec':{'containers':[{'env':[{'name':'GREETING','value':'hi'}],'image':'ghcr.io/example/hello:1.4.2','name':'app',"
                + "'ports':[{'containerPort':8080,'name':'http'}],'readinessProbe':{'tcpSocket':{'port':'http'}}}]}}}}"),
                child(response, "Deployment", "hello"));
        assertEquals(json("{'apiVersion':'v1','kind':'Service','metadata':{'labels':{'app.kubernetes.io/instance':'hello',"
                + "'app.kubernetes.io/managed-by':'metahook','app.kubernetes.io/name':'webapp'},'name':'hello','namespace':'default'},"
                + "'spec':{'ports':[{'name':'http','port':8080,'targetPort':'http'}],'selector':{'app.kubernetes.io/instance':'hello',"
                + "'app.kubernetes.io/name':'webapp'},'type':'ClusterIP'}}"), child(response, "Service", "hello"));
        assertEquals("http://hello.default.svc:8080", response.at("/status/url").asText());
        assertEquals(0, response.at("/status/availableReplicas").intValue());
    }

    @Test
    void saysRollingOutWhileReplicasAreMissing() {
        WebApp webApp = webApp();
        JsonNode response = sync(webApp, running(webApp,
                "{'observedGeneration':1,'replicas':2,'updatedReplicas':2,'readyReplicas':1,'availableReplicas':1}"));
        assertEquals("Ready=False/RollingOut Reconciling=True/RollingOut Stalled=False/RollingOut", conditions(response));
        assertEquals("1/2 replicas available, 2/2 updated", response.at("/status/conditions/0/message").asText());
        assertEquals(1, response.at("/status/readyReplicas").intValue());
    }

    @Test
    void saysAvailableWhenTheRolloutIsComplete() {
        WebApp webApp = webApp();
        JsonNode response = sync(webApp, running(webApp,
                "{'observedGeneration':1,'replicas':2,'updatedReplicas':2,'readyReplicas':2,'availableReplicas':2}"));
        assertEquals("Ready=True/Available Reconciling=False/Available Stalled=False/Available", conditions(response));
        assertEquals("2/2 replicas available", response.at("/status/conditions/0/message").asText());
        assertEquals(2, response.at("/status/replicas").intValue());
        assertEquals(2, response.at("/status/updatedReplicas").intValue());
    }

    @Test
    void saysRollingOutWhileTheDeploymentHasNotSeenItsNewGeneration() {
        WebApp webApp = webApp();
        List<HasMetadata> observed = running(webApp,
                "{'observedGeneration':1,'replicas':2,'updatedReplicas':2,'readyReplicas':2,'availableReplicas':2}");
        observed.get(0).getMetadata().setGeneration(2L);
        assertEquals("Ready=False/RollingOut Reconciling=True/RollingOut Stalled=False/RollingOut", conditions(sync(webApp, observed)));
    }

    @Test
    void saysRollingOutAfterAnImageChange() {
        WebApp webApp = webApp();
        List<HasMetadata> observed = running(webApp,
                "{'observedGeneration':1,'replicas':2,'updatedReplicas':2,'readyReplicas':2,'availableReplicas':2}");
        JsonNode response = sync(withSpec(webApp, "image", "ghcr.io/example/hello:1.5.0"), observed);
        assertEquals("Ready=False/RollingOut Reconciling=True/RollingOut Stalled=False/RollingOut", conditions(response));
        assertEquals("ghcr.io/example/hello:1.5.0", child(response, "Deployment", "hello").at("/spec/template/spec/containers/0/image").asText());
    }

    @Test
    void saysRollingOutWhileOldReplicasRemain() {
        WebApp webApp = webApp();
        JsonNode response = sync(webApp, running(webApp,
                "{'observedGeneration':1,'replicas':3,'updatedReplicas':2,'readyReplicas':3,'availableReplicas':3}"));
        assertEquals("Ready=False/RollingOut Reconciling=True/RollingOut Stalled=False/RollingOut", conditions(response));
    }

    @Test
    void stallsWhenTheProgressDeadlineIsExceeded() {
        WebApp webApp = webApp();
        JsonNode response = sync(webApp, running(webApp, "{'observedGeneration':1,'replicas':2,'updatedReplicas':1,"
                + "'conditions':[{'type':'Progressing','status':'False','reason':'ProgressDeadlineExceeded',"
                + "'message':'ReplicaSet \\\"hello-5d\\\" has timed out progressing.'}]}"));
        assertEquals("Ready=False/ProgressDeadlineExceeded Reconciling=False/ProgressDeadlineExceeded "
                + "Stalled=True/ProgressDeadlineExceeded", conditions(response));
        assertEquals("the Deployment exceeded its progress deadline: ReplicaSet \"hello-5d\" has timed out progressing.",
                response.at("/status/conditions/2/message").asText());
    }

    @Test
    void keepsChildrenWhenSpecIsInvalid() {
        WebApp webApp = webApp();
        List<HasMetadata> observed = running(webApp,
                "{'observedGeneration':1,'replicas':2,'updatedReplicas':2,'readyReplicas':2,'availableReplicas':2}");
        JsonNode response = sync(withSpec(webApp, "port", 70000), observed);
        assertEquals("Ready=False/InvalidSpec Reconciling=False/InvalidSpec Stalled=True/InvalidSpec", conditions(response));
        assertEquals("spec.port: must be between 1 and 65535, got 70000", response.at("/status/conditions/2/message").asText());
        assertEquals(applied(observed.get(0)), child(response, "Deployment", "hello"));
        assertEquals(applied(observed.get(1)), child(response, "Service", "hello"));
        assertEquals("http://hello.default.svc:8080", response.at("/status/url").asText(), "the URL still served");
        assertEquals(2, response.at("/status/availableReplicas").intValue());
    }

    @Test
    void aWrongTypeInTheSpecIsAnInvalidSpecToo() {
        WebApp webApp = webApp();
        List<HasMetadata> observed = running(webApp, "{}");
        JsonNode response = sync(withSpec(webApp, "replicas", "three"), observed);
        assertEquals("spec.replicas: must be an integer, got \"three\"", response.at("/status/conditions/2/message").asText());
        assertEquals(2, response.get("children").size());
        assertEquals("spec.image: must be a string, got 42",
                sync(withSpec(webApp, "image", 42), observed).at("/status/conditions/2/message").asText());
        assertEquals("spec: is required, with at least spec.image",
                sync(withSpec(webApp, "spec", null), observed).at("/status/conditions/2/message").asText());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"my.app", "Hello", "1st-app", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"})
    void aNameNoServiceCanHaveStallsWithInvalidSpec(String name) {
        WebApp webApp = webApp();
        webApp.getMetadata().setName(name);
        JsonNode response = sync(webApp, List.of());
        assertEquals("Ready=False/InvalidSpec Reconciling=False/InvalidSpec Stalled=True/InvalidSpec", conditions(response));
        assertEquals("metadata.name: WebApp \"" + name + "\" would name a child \"" + name + "\", which the API server refuses: a Service"
                + " or Job name is at most 63 characters of lower-case letters, digits and '-', starting with a letter and ending with a"
                + " letter or digit; recreate the WebApp under such a name of at most 63 characters",
                response.at("/status/conditions/2/message").asText());
        assertEquals(0, response.get("children").size());
    }

    @Test
    void reportsNoUrlWhenInvalidBeforeAnyServiceExists() {
        WebApp webApp = webApp();
        JsonNode response = sync(withSpec(webApp, "image", "has space"), List.of());
        assertEquals(0, response.get("children").size());
        assertFalse(response.get("status").has("url"));
        assertEquals("spec.image: must not contain whitespace, got \"has space\"", response.at("/status/conditions/2/message").asText());
    }

    @Test
    void refusesEnvironmentNamesThatAreNotCIdentifiersOrRepeat() {
        WebApp webApp = webApp();
        Object twice = List.of(Map.of("name", "GREETING", "value", "hi"), Map.of("name", "GREETING", "value", "again"));
        assertEquals("spec.env[1].name: GREETING appears twice",
                sync(withSpec(webApp, "env", twice), List.of()).at("/status/conditions/2/message").asText());
        assertEquals("spec.env[0].name: must be a C identifier, got \"1ST\"",
                sync(withSpec(webApp, "env", List.of(Map.of("name", "1ST"))), List.of()).at("/status/conditions/2/message").asText());
    }

    @Test
    void anEmptyEnvironmentValueIsAnsweredAsTheApiServerStoresIt() {
        WebApp webApp = webApp();
        Object env = List.of(Map.of("name", "QUIET", "value", ""), Map.of("name", "GREETING", "value", "hi"));
        JsonNode container = child(sync(withSpec(webApp, "env", env), List.of()), "Deployment", "hello")
                .at("/spec/template/spec/containers/0");
        assertEquals(json("[{'name':'QUIET'},{'name':'GREETING','value':'hi'}]"), container.get("env"));
    }

    @Test
    void deletesLeftoverChildren() {
        WebApp webApp = webApp();
        List<HasMetadata> observed = running(webApp, "{}");
        Deployment old = convert(Json.tree(observed.get(0)), Deployment.class);
        old.getMetadata().setName("hello-old");
        observed.add(old);
        JsonNode response = sync(webApp, observed);
        assertEquals(2, response.get("children").size());
    }

    @Test
    void carriesLastTransitionTimeForward() {
        WebApp webApp = webApp();
        webApp.setStatus(convert(json("{'conditions':[{'type':'Ready','status':'True','reason':'Available','message':'',"
                + "'lastTransitionTime':'2026-11-28T09:00:00Z'},{'type':'Stalled','status':'True','reason':'InvalidSpec','message':'',"
                + "'lastTransitionTime':'2026-11-28T08:00:00Z'}],'replicas':0,'readyReplicas':0,'availableReplicas':0,"
                + "'updatedReplicas':0}"), WebApp.Status.class));
        JsonNode response = sync(webApp, running(webApp,
                "{'observedGeneration':1,'replicas':2,'updatedReplicas':2,'readyReplicas':2,'availableReplicas':2}"));
        assertEquals("2026-11-28T09:00:00Z", response.at("/status/conditions/0/lastTransitionTime").asText());
        assertEquals("2026-11-29T16:04:05Z", response.at("/status/conditions/2/lastTransitionTime").asText());
    }

    @Test
    void convergesToAFixedPoint() {
        WebApp webApp = webApp();
        List<HasMetadata> observed = running(webApp,
                "{'observedGeneration':1,'replicas':2,'updatedReplicas':2,'readyReplicas':2,'availableReplicas':2}");
        JsonNode response = sync(webApp, observed);
        assertEquals(desired(observed.get(0)), child(response, "Deployment", "hello"));
        assertEquals(desired(observed.get(1)), child(response, "Service", "hello"));
    }

    /** Exactly what Metacontroller last applied, controller-uid label included. */
    static ObjectNode asLastApplied(JsonNode observed) {
        return (ObjectNode) Json.parse(observed.at("/metadata/annotations")
                .get("metacontroller.k8s.io/last-applied-configuration").asText().getBytes());
    }

    /** What the hook sent: the observed child without its status. */
    private static JsonNode desired(HasMetadata observed) {
        ObjectNode desired = (ObjectNode) Json.tree(observed);
        desired.remove("status");
        return desired;
    }

    /** What Metacontroller applied (and the kit wrote into the annotation): the desired child with the controller-uid label. */
    private static JsonNode applied(HasMetadata observed) {
        ObjectNode applied = (ObjectNode) desired(observed);
        applied.withObjectProperty("metadata").withObjectProperty("labels").put("controller-uid", UID);
        return applied;
    }
}
