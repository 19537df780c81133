package dev.metahook.internal.sim;

import dev.metahook.testkit.CheckReport;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.api.ChildId;
import dev.metahook.api.Controllers;
import dev.metahook.api.CustomResource;
import dev.metahook.api.Result;
import dev.metahook.api.TerminalException;
import dev.metahook.examples.catset.CatSet;
import dev.metahook.examples.catset.CatSetController;
import dev.metahook.internal.contract.Breach;
import dev.metahook.internal.engine.HookEngine;
import dev.metahook.internal.wire.Json;
import dev.metahook.manifests.Manifests;
import dev.metahook.testing.StoredObjects;
import dev.metahook.testing.TestServer;
import dev.metahook.testkit.HookTester;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The simulated API server keeps of a parent what its CRD declares, as kube-apiserver prunes a structural
 * schema: the conditions metahook writes on a terminal error and the Updated condition Metacontroller writes
 * for children that roll survive the generated CRD, and a CRD without {@code status.conditions} loses them,
 * which {@code check} reports ({@code pruned-status}) (issue 37, D3).
 */
public class ParentPruningTest {
    private static final HookEngine CATSETS = new HookEngine(Controllers.builder()
            .composite("catset", CatSet.class, new CatSetController()).build(), TestServer.CLOCK);
    private static final ControllerSpec CATSET = ControllerSpec.read(StoredObjects.manifest("examples/catset/controller.yaml"));

    @TempDir
    Path dir;

    /** A parent whose status type has no conditions field of its own. */
    @Group("example.com")
    @Version("v1")
    public static class Widget extends CustomResource<Widget.Spec, Widget.Status> implements Namespaced {
        public record Spec(String size) {
        }

        public record Status(Integer count) {
        }
    }

    private static final Controllers STALLING = Controllers.builder().composite("widget", Widget.class, (widget, context) -> {
        if (widget.getSpec() == null || widget.getSpec().size() == null) {
            throw new TerminalException("InvalidSpec", "spec.size: is required");
        }
        return Result.keepingObserved().withStatus(new Widget.Status(1));
    }).build();

    private List<JsonNode> objects(String yaml) throws Exception {
        Path file = Files.writeString(dir.resolve("crd-" + System.nanoTime() + ".yaml"), yaml);
        return List.copyOf(dev.metahook.testkit.Manifests.readAll(file, ObjectNode.class));
    }

    private static ObjectNode widget() {
        ObjectNode widget = Json.object().put("apiVersion", "example.com/v1").put("kind", "Widget");
        widget.putObject("metadata").put("name", "w").put("namespace", "default");
        widget.putObject("spec");
        return widget;
    }

    private static ObjectNode withoutConditions(JsonNode crd) {
        ObjectNode copy = crd.deepCopy();
        ((ObjectNode) copy.at("/spec/versions/0/schema/openAPIV3Schema/properties/status/properties")).remove("conditions");
        return copy;
    }

    @Test
    void theGeneratedCrdDeclaresTheConditionsAStatusTypeLeavesOut() throws Exception {
        JsonNode crd = objects(Manifests.crdFile(Widget.class, true)).get(0);
        JsonNode conditions = crd.at("/spec/versions/0/schema/openAPIV3Schema/properties/status/properties/conditions");
        assertEquals("array", conditions.path("type").asText());
        assertEquals("[\"type\",\"status\"]", conditions.at("/items/required").toString(), "Metacontroller's Updated has no time");
        assertTrue(crd.at("/spec/versions/0/schema/openAPIV3Schema/properties/status/properties/observedGeneration").isObject());
    }

    @Test
    void aStalledParentKeepsItsConditionsThroughTheGeneratedCrd() throws Exception {
        JsonNode crd = objects(Manifests.crdFile(Widget.class, true)).get(0);
        ObjectNode stored = stalled(crd);
        assertEquals(List.of("Ready=False", "Reconciling=False", "Stalled=True"), summary(stored.path("status").path("conditions")));
        assertEquals(List.of(), check(crd).breaches());
    }

    @Test
    void aCrdWithoutConditionsLosesTheStallAndCheckSaysSo() throws Exception {
        JsonNode crd = withoutConditions(objects(Manifests.crdFile(Widget.class, true)).get(0));
        ObjectNode stored = stalled(crd);
        assertTrue(stored.path("status").path("conditions").isMissingNode(), stored.toString());
        assertEquals(1, stored.at("/status/observedGeneration").asInt(), "what the schema declares stays");
        assertEquals(List.of(new Breach("pruned-status", "the API server drops status.conditions from the parent's status: the parent's CRD"
                + " does not declare it, so nobody reading the parent sees it (declare it in the status schema, or mark it"
                + " x-kubernetes-preserve-unknown-fields)")), check(crd).breaches().stream().map(found -> new Breach(found.kind(), found.message())).toList());
    }

    @Test
    void aRollingParentKeepsMetacontrollersUpdatedConditionThroughTheGeneratedCrd() throws Exception {
        ControllerSpec spec = CATSET.withDefinitions(objects(Files.readString(Path.of("examples/catset/crd.yaml"))));
        CheckReport report = new Checker(spec, new InProcessHook(CATSETS, "catset"), TestServer.CLOCK, 20)
                .check(StoredObjects.manifest("examples/catset/my-catset.yaml"), null);
        assertEquals(List.of(), report.breaches());

        Simulation simulation = new Simulation(spec, new InProcessHook(CATSETS, "catset"), TestServer.CLOCK);
        ChildId parent = simulation.create(StoredObjects.manifest("examples/catset/my-catset.yaml"));
        simulation.converge(parent, 20, true);
        JsonNode status = simulation.store().get(parent).orElseThrow().path("status");
        assertEquals(List.of("Updated=True"), summary(status.path("conditions")), status.toString());
    }

    @Test
    void aRollingParentUnderTheOldCatsetCrdLosesTheUpdatedCondition() throws Exception {
        JsonNode crd = withoutConditions(objects(Files.readString(Path.of("examples/catset/crd.yaml"))).get(0));
        CheckReport report = new Checker(CATSET.withDefinitions(List.of(crd)), new InProcessHook(CATSETS, "catset"), TestServer.CLOCK, 20)
                .check(StoredObjects.manifest("examples/catset/my-catset.yaml"), null);
        assertEquals(List.of("pruned-status"), report.breaches().stream().map(CheckReport.Breach::kind).toList(), report.breaches().toString());
        assertTrue(report.breaches().get(0).message().startsWith("the API server drops status.conditions "), report.breaches().toString());
    }

    @Test
    void fieldsOfTheParentTheCrdDoesNotDeclareAreDroppedOnCreate() throws Exception {
        ControllerSpec spec = CATSET.withDefinitions(objects(Files.readString(Path.of("examples/catset/crd.yaml"))));
        ObjectNode parent = StoredObjects.manifest("examples/catset/my-catset.yaml");
        ((ObjectNode) parent.get("spec")).put("colour", "blue");
        Simulation simulation = new Simulation(spec, new InProcessHook(CATSETS, "catset"), TestServer.CLOCK);
        ChildId ref = simulation.create(parent);
        JsonNode stored = simulation.store().get(ref).orElseThrow();
        assertTrue(stored.at("/spec/colour").isMissingNode());
        assertEquals(parent.at("/spec/template"), stored.at("/spec/template"), "kept whole: x-kubernetes-preserve-unknown-fields");
    }

    private ObjectNode stalled(JsonNode crd) {
        ControllerSpec spec = ControllerSpec.read(dev.metahook.internal.registration.ControllerManifest.of(STALLING.get("widget").orElseThrow(),
                "in-process", "in-process-system")).withDefinitions(List.of(crd));
        Simulation simulation = new Simulation(spec, new InProcessHook(new HookEngine(STALLING, TestServer.CLOCK), "widget"), TestServer.CLOCK);
        ChildId ref = simulation.create(widget());
        simulation.converge(ref, 10, true);
        return simulation.store().get(ref).orElseThrow();
    }

    private CheckReport check(JsonNode crd) {
        ControllerSpec spec = ControllerSpec.read(dev.metahook.internal.registration.ControllerManifest.of(STALLING.get("widget").orElseThrow(),
                "in-process", "in-process-system")).withDefinitions(List.of(crd));
        return new Checker(spec, new InProcessHook(new HookEngine(STALLING, TestServer.CLOCK), "widget"), TestServer.CLOCK, 10).check(widget(), null);
    }

    private static List<String> summary(JsonNode conditions) {
        List<String> all = new ArrayList<>();
        conditions.forEach(condition -> all.add(condition.path("type").asText() + "=" + condition.path("status").asText()));
        return all;
    }

    @Test
    void hookTesterPrunesByTheDefinitionsItIsGiven() throws Exception {
        Path crd = Files.writeString(dir.resolve("crd.yaml"), Json.mapper().writeValueAsString(withoutConditions(
                objects(Manifests.crdFile(Widget.class, true)).get(0))));
        Widget parent = new Widget();
        parent.getMetadata().setName("w");
        parent.getMetadata().setNamespace("default");
        parent.setSpec(new Widget.Spec(null));
        HookTester tester = HookTester.of(STALLING, "widget");
        assertTrue(tester.check(parent).clean(), "nothing pruned without the CRD");
        assertTrue(tester.withDefinitions(crd).check(parent).breaches().get(0).kind().equals("pruned-status"),
                tester.withDefinitions(crd).check(parent).toString());
    }
}
