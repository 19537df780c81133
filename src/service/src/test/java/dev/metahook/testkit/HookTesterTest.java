package dev.metahook.testkit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.metahook.api.Controllers;
import dev.metahook.api.RelatedRule;
import dev.metahook.api.Result;
import dev.metahook.controllers.database.Database;
import dev.metahook.controllers.database.DatabaseController;
import dev.metahook.controllers.webapp.WebApp;
import dev.metahook.controllers.webapp.WebAppController;
import dev.metahook.examples.configmappropagation.ConfigMapPropagation;
import dev.metahook.examples.configmappropagation.ConfigMapPropagationController;
import dev.metahook.readme.ReadmeCode;
import dev.metahook.testing.Widget;
import dev.metahook.testing.WidgetController;
import dev.metahook.api.Child;
import dev.metahook.api.CompositeController;
import dev.metahook.api.Declaration;
import dev.metahook.api.Update;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The test kit against controllers whose behaviour the other tests pin down. */
class HookTesterTest {
    private static final Controllers CONTROLLERS = Controllers.builder()
            .composite("widget", Widget.class, new WidgetController())
            .composite("webapp", WebApp.class, new WebAppController())
            .composite("database", Database.class, new DatabaseController("a key for the kit tests".getBytes(StandardCharsets.UTF_8)))
            .build();
    private static final HookTester WIDGETS = HookTester.of(CONTROLLERS, "widget", ConfigMap.class);

    private static Widget widget(String message) {
        return Manifests.parse("""
                apiVersion: test.metahook.dev/v1
                kind: Widget
                metadata: {name: hello, namespace: default}
                spec: {size: 3, message: %s}
                """.formatted(message), Widget.class);
    }

    @Test
    void aSyncAnswersTypedChildrenAndStatus() {
        Answer answer = WIDGETS.sync(widget("hi")).call();
        assertTrue(answer.ok(), answer::toString);
        ConfigMap map = answer.child(ConfigMap.class, "hello").orElseThrow();
        assertEquals("hi", map.getData().get("message"));
        assertEquals("default", map.getMetadata().getNamespace());
        assertEquals(3, answer.status(Map.class).orElseThrow().get("size"));
    }

    @Test
    void observedChildrenAreWhatMetacontrollerWouldSend() {
        ConfigMap leftover = new ConfigMapBuilder().withNewMetadata().withName("old").endMetadata().addToData("message", "x").build();
        Answer answer = WIDGETS.sync(widget("hi")).observing(leftover).call();
        assertEquals(List.of("hello"), answer.children(ConfigMap.class).stream().map(c -> c.getMetadata().getName()).toList(),
                "the leftover is deleted: the controller says deletingUnlisted");
        assertEquals(1, answer.status(Map.class).orElseThrow().get("observedConfigMaps"));
    }

    @Test
    void theSameCallGivesTheSameBytes() {
        assertArrayEquals(WIDGETS.sync(widget("hi")).call().body(), WIDGETS.sync(widget("hi")).call().body());
    }

    @Test
    void errorsAreAnswersToReadNotExceptions() {
        Answer retry = WIDGETS.sync(widget("retry")).call();
        assertEquals(429, retry.code());
        assertEquals(Duration.ofSeconds(7), retry.retryAfter().orElseThrow());
        Answer bug = WIDGETS.sync(widget("boom")).call();
        assertEquals(500, bug.code());
        assertTrue(bug.problem().orElseThrow().contains("IllegalStateException: boom"), bug::toString);
    }

    @Test
    void guardsRefuseAnAnswerThatWouldDeleteByAccident() {
        Controllers forgetful = Controllers.builder().composite("forgetful", Widget.class, (widget, context) -> Result.of()).build();
        ConfigMap kept = new ConfigMapBuilder().withNewMetadata().withName("hello").endMetadata().build();
        Answer answer = HookTester.of(forgetful, "forgetful", ConfigMap.class).sync(widget("hi")).observing(kept).call();
        assertEquals(500, answer.code());
        assertTrue(answer.violations().get(0).contains("observed child ConfigMap.v1 default/hello"), answer::toString);
    }

    @Test
    void finalizeAndCustomizeAreCalledThroughTheirCapabilities() {
        Answer waiting = WIDGETS.finalize(widget("hi")).observing(new ConfigMapBuilder().withNewMetadata().withName("hello")
                .endMetadata().build()).call();
        assertFalse(waiting.finalized());
        assertEquals(Duration.ofSeconds(5), waiting.resyncAfter().orElseThrow());
        assertTrue(WIDGETS.finalize(widget("hi")).call().finalized());
        List<RelatedRule> rules = WIDGETS.customize(widget("hi")).call().relatedRules();
        assertEquals(List.of(RelatedRule.named("v1", "secrets", "widget-shared").inNamespace("default")), rules);
    }

    @Test
    void relatedObjectsReachTheContext() {
        Controllers reader = Controllers.builder().composite("reader", Widget.class, (widget, context) -> Result.keepingObserved()
                .withStatus(Map.of("shared", context.related().get(Secret.class, "widget-shared").isPresent()))).build();
        Secret shared = new SecretBuilder().withNewMetadata().withName("widget-shared").withNamespace("default").endMetadata().build();
        Answer answer = HookTester.of(reader, "reader", ConfigMap.class).sync(widget("hi")).related(shared).call();
        assertEquals(true, answer.status(Map.class).orElseThrow().get("shared"));
    }

    @Test
    void theReferenceControllersLivesAreClean() {
        CheckReport webApp = HookTester.of(CONTROLLERS, "webapp", Path.of("metacontroller/webapp-controller.yaml"))
                .check(Manifests.read(Path.of("examples/webapp.yaml"), WebApp.class));
        assertTrue(webApp.clean(), webApp::toString);
        assertTrue(webApp.calls() > 3, webApp::toString);
        CheckReport database = HookTester.of(CONTROLLERS, "database", Path.of("metacontroller/database-controller.yaml"))
                .check(Manifests.read(Path.of("examples/database.yaml"), Database.class));
        assertTrue(database.clean(), database::toString);
        assertEquals("Kubernetes 1.29-1.37, Metacontroller v4.17.2", database.versions());
    }

    /** One minor, or one Metacontroller release, alone; the Database's claim template is clean on either side of 1.34. */
    @Test
    void checksOnTheKubernetesAndMetacontrollerVersionsAsked() {
        HookTester tester = HookTester.of(CONTROLLERS, "database", Path.of("metacontroller/database-controller.yaml"));
        Database database = Manifests.read(Path.of("examples/database.yaml"), Database.class);
        for (String minor : new String[] {"1.33", "v1.34.0"}) {
            CheckReport report = tester.withKubernetesVersion(minor).withMetacontrollerVersion("v4.10.2").check(database);
            assertTrue(report.clean(), report::toString);
            assertEquals("Kubernetes " + minor.replace("v", "").replace(".0", "") + ", Metacontroller v4.10.2", report.versions());
        }
        assertEquals("Kubernetes 1.28 is not one check models: 1.29 to 1.37",
                org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> tester.withKubernetesVersion("1.28")).getMessage());
    }

    /** The declared children and settings reach the tester's manifest: no manifest file, no child types repeated. */
    @Test
    void aTesterFromTheRegistrationAloneChecksWhatItDeclares() {
        CompositeController<Widget, Map<String, Object>> controller = (widget, context) -> Result.<Map<String, Object>>of(
                new ConfigMapBuilder().withNewMetadata().withName(widget.getMetadata().getName()).endMetadata()
                        .addToData("message", widget.getSpec().message).build()).deletingUnlisted();
        Controllers declared = Controllers.builder().composite("widget", Widget.class, controller,
                Declaration.children(Child.of(ConfigMap.class, Update.RECREATE)).resync(Duration.ofSeconds(30))).build();
        HookTester tester = HookTester.of(declared, "widget");
        assertEquals("{\"apiVersion\":\"v1\",\"resource\":\"configmaps\",\"updateStrategy\":{\"method\":\"Recreate\"}}",
                tester.manifest().at("/spec/childResources/0").toString());
        assertEquals(30, tester.manifest().at("/spec/resyncPeriodSeconds").asInt());
        assertEquals(List.of("sync"), fieldNames(tester.manifest().at("/spec/hooks")));
        CheckReport clean = tester.check(widget("hi"));
        assertTrue(clean.clean(), clean::toString);

        Controllers undeclared = Controllers.builder().composite("widget", Widget.class, controller).build();
        CheckReport report = HookTester.of(undeclared, "widget").check(widget("hi"));
        assertTrue(report.breaches().stream().anyMatch(breach -> breach.message().contains("is not declared in the controller's spec.childResources")),
                report::toString);
    }

    private static List<String> fieldNames(com.fasterxml.jackson.databind.JsonNode node) {
        List<String> names = new java.util.ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }

    @Test
    void checkReportsABreach() {
        Controllers forgetful = Controllers.builder().composite("forgetful", Widget.class, (widget, context) ->
                Result.of(new ConfigMapBuilder().withNewMetadata().withName("n" + System.nanoTime()).endMetadata().build())
                        .deletingUnlisted()).build();
        CheckReport report = HookTester.of(forgetful, "forgetful", ConfigMap.class).check(widget("hi"));
        assertFalse(report.clean());
        assertTrue(report.breaches().stream().anyMatch(breach -> breach.kind().equals("non-deterministic") && breach.phase().equals("repeat")), report::toString);
    }

    @Test
    void checkDrivesADecoratorAndFeedsRelatedObjects() {
        Controllers controllers = Controllers.builder()
                .decorator("budget", Deployment.class, ReadmeCode.budgetDecorator())
                .composite("propagation", ConfigMapPropagation.class,
                        new ConfigMapPropagationController())
                .build();
        Deployment web = Manifests.parse("""
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: web, namespace: default}
                spec:
                  selector: {matchLabels: {app: web}}
                  template:
                    metadata: {labels: {app: web}}
                    spec: {containers: [{name: web, image: nginx}]}
                """, Deployment.class);
        CheckReport decorated = HookTester.of(controllers, "budget",
                PodDisruptionBudget.class).check(web);
        assertTrue(decorated.clean(), decorated::toString);

        HookTester propagation = HookTester.of(controllers, "propagation", Path.of("examples/configmappropagation/controller.yaml"));
        var parent = Manifests.read(Path.of("examples/configmappropagation/configmappropagation.yaml"),
                ConfigMapPropagation.class);
        List<HasMetadata> cluster = List.of(
                Manifests.parse("{apiVersion: v1, kind: ConfigMap, metadata: {name: settings, namespace: original}, data: {a: b}}", ConfigMap.class),
                Manifests.parse("{apiVersion: v1, kind: Namespace, metadata: {name: one, labels: {settings: wanted}}}",
                        Namespace.class));
        CheckReport withRelated = propagation.check(parent, null, cluster);
        assertTrue(withRelated.clean(), withRelated::toString);
        CheckReport without = propagation.check(parent);
        assertTrue(without.breaches().stream().anyMatch(breach -> breach.kind().equals("no-related") && breach.hook().equals("customize")), without::toString);
    }
}
