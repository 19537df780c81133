package dev.metahook.examples.bluegreen;

import static dev.metahook.examples.ExampleCalls.asUpstreamWritesIt;
import static dev.metahook.examples.ExampleCalls.manifest;
import static dev.metahook.examples.ExampleCalls.post;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.api.ChildId;
import dev.metahook.examples.ExampleCalls;
import dev.metahook.internal.sim.HttpHook;
import dev.metahook.internal.sim.ControllerSpec;
import dev.metahook.internal.sim.Simulation;
import dev.metahook.testing.Fixtures;
import dev.metahook.testing.TestServer;
import dev.metahook.internal.wire.CanonicalJson;
import dev.metahook.internal.wire.Json;
import dev.metahook.internal.wire.ResponseCheck;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The bluegreen port through the stock server: the original's request, a whole rollout under the simulator, bad specs. */
class BlueGreenTest {
    private static final String FIXTURE = "metacontroller/01-composite-sync-v1";
    @RegisterExtension
    static final TestServer server = TestServer.of(ExampleCalls::controllers);

    @Test
    void answersTheOriginalsRequestAsTheOriginalDoes() {
        JsonNode answer = post(server, "/bluegreen/sync", Fixtures.bytes(FIXTURE + ".request.json"));
        assertEquals(List.of(), ResponseCheck.composite(answer, true));
        assertEquals(asUpstreamWritesIt(Fixtures.json(FIXTURE + ".response.json"), "children"), asUpstreamWritesIt(answer, "children"));
    }

    @Test
    void theSameRequestGivesTheSameBytesWhateverItsKeyOrder() {
        ExampleCalls.assertSameBytesWhateverKeyOrder(server, "/bluegreen/sync", Fixtures.bytes(FIXTURE + ".request.json"), 3);
    }

    @Test
    void rollsOutANewTemplateOnTheInactiveColorAndSwitchesWhenItIsAvailable() {
        ControllerSpec spec = ControllerSpec.read(manifest("bluegreen", "controller.yaml"));
        try (HttpHook hooks = ExampleCalls.hooks(spec, server)) {
            Simulation simulation = new Simulation(spec, hooks, TestServer.CLOCK);
            ChildId parent = simulation.create(manifest("bluegreen", "my-bluegreen.yaml"));

            assertTrue(simulation.converge(parent, 10, false).converged());
            assertEquals(3, replicaSet(simulation, "nginx-blue").at("/spec/replicas").intValue());
            assertEquals(0, replicaSet(simulation, "nginx-green").at("/spec/replicas").intValue());
            assertEquals("blue", service(simulation).at("/spec/selector/color").asText());
            assertTrue(simulation.converge(parent, 10, true).converged());
            assertEquals("blue", status(simulation, parent).at("/activeColor").asText());
            assertEquals(3, status(simulation, parent).at("/active/availableReplicas").intValue());

            ObjectNode edited = manifest("bluegreen", "my-bluegreen.yaml");
            edited.withObjectProperty("spec").withObjectProperty("template").withObjectProperty("metadata").withObjectProperty("labels").put("new", "label");
            simulation.edit(edited);
            simulation.pass(parent, false);
            assertEquals(3, replicaSet(simulation, "nginx-green").at("/spec/replicas").intValue(), "the new template starts on green");
            assertEquals("label", replicaSet(simulation, "nginx-green").at("/spec/template/metadata/labels/new").asText());
            assertEquals("blue", service(simulation).at("/spec/selector/color").asText(), "traffic stays on blue until green is available");
            simulation.pass(parent, true);
            simulation.pass(parent, true);
            assertEquals("green", service(simulation).at("/spec/selector/color").asText());
            assertTrue(simulation.converge(parent, 10, true).converged());
            assertEquals(0, replicaSet(simulation, "nginx-blue").at("/spec/replicas").intValue(), "blue scaled down after the switch");
            assertEquals("green", status(simulation, parent).at("/activeColor").asText());
            assertEquals(3, status(simulation, parent).at("/active/availableReplicas").intValue());

            ObjectNode again = edited.deepCopy();
            again.withObjectProperty("spec").withObjectProperty("template").withObjectProperty("metadata").withObjectProperty("labels").put("new2", "label2");
            simulation.edit(again);
            assertTrue(simulation.converge(parent, 10, true).converged());
            assertEquals("blue", status(simulation, parent).at("/activeColor").asText(), "the next rollout goes back to blue");
            assertEquals("label2", replicaSet(simulation, "nginx-blue").at("/spec/template/metadata/labels/new2").asText());
            assertEquals(0, replicaSet(simulation, "nginx-green").at("/spec/replicas").intValue());

            simulation.delete(parent);
            assertEquals(List.of(), simulation.store().all(), "the garbage collector takes the ReplicaSets and the Service");
        }
    }

    @Test
    @Tag("differs")
    void aTemplateAnnotationEditedAwayIsReadFromWhatWasApplied() {
        ObjectNode request = (ObjectNode) Fixtures.json(FIXTURE + ".request.json");
        request.withObjectProperty("children").withObjectProperty("ReplicaSet.apps/v1").forEach(set ->
                set.withObjectProperty("metadata").withObjectProperty("annotations").remove(RecordedTemplate.ANNOTATION));
        JsonNode answer = post(server, "/bluegreen/sync", CanonicalJson.bytes(request));
        assertEquals(asUpstreamWritesIt(Fixtures.json(FIXTURE + ".response.json"), "children"), asUpstreamWritesIt(answer, "children"));
    }

    @Test
    void anInvalidSpecKeepsEveryChildAndStalls() {
        ObjectNode request = (ObjectNode) Fixtures.json(FIXTURE + ".request.json");
        request.withObjectProperty("parent").withObjectProperty("spec").remove("service");
        JsonNode answer = post(server, "/bluegreen/sync", CanonicalJson.bytes(request));
        assertEquals(List.of("nginx-blue", "nginx-frontend", "nginx-green"), names(answer));
        JsonNode stalled = answer.at("/status/conditions/2");
        assertEquals("Stalled/True/InvalidSpec", stalled.path("type").asText() + "/" + stalled.path("status").asText() + "/"
                + stalled.path("reason").asText());
        assertEquals("blue", answer.at("/status/activeColor").asText(), "the status it had is kept");
    }

    private static List<String> names(JsonNode answer) {
        List<String> names = new ArrayList<>();
        answer.get("children").forEach(child -> names.add(child.at("/metadata/name").asText()));
        names.sort(null);
        return names;
    }

    private static ObjectNode replicaSet(Simulation simulation, String name) {
        return simulation.store().get(new ChildId("apps/v1", "ReplicaSet", "default", name)).orElseThrow(() -> new AssertionError(name));
    }

    private static ObjectNode service(Simulation simulation) {
        return simulation.store().get(new ChildId("v1", "Service", "default", "nginx-frontend")).orElseThrow();
    }

    private static JsonNode status(Simulation simulation, ChildId parent) {
        return simulation.store().get(parent).orElseThrow().path("status");
    }
}
