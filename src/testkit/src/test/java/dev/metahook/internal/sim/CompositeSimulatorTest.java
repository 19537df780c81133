package dev.metahook.internal.sim;

import static dev.metahook.testing.StoredObjects.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.api.ChildId;
import dev.metahook.testing.TestServer;
import dev.metahook.internal.wire.Json;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** What Metacontroller does with an answer, one rule at a time, with a scripted hook. */
class CompositeSimulatorTest {
    private static final ChildId PARENT = new ChildId("test.metahook.dev/v1", "Widget", "default", "w");
    private final List<JsonNode> requests = new ArrayList<>();

    private Simulation simulation(String method, boolean finalize, String version, Function<JsonNode, HookClient.Reply> script) {
        ObjectNode manifest = (ObjectNode) json("{'apiVersion':'metacontroller.k8s.io/v1alpha1','kind':'CompositeController',"
                + "'metadata':{'name':'widgets'},'spec':{'generateSelector':true,"
                + "'parentResource':{'apiVersion':'test.metahook.dev/v1','resource':'widgets'},"
                + "'childResources':[{'apiVersion':'v1','resource':'configmaps','updateStrategy':{'method':'" + method + "'}}],"
                + "'hooks':{'sync':{'version':'" + version + "','webhook':{'url':'http://hooks/sync'}}}}}");
        if (finalize) {
            manifest.withObjectProperty("spec").withObjectProperty("hooks").putObject("finalize").putObject("webhook").put("url", "http://hooks/finalize");
        }
        HookClient client = (hook, body) -> {
            JsonNode request = Json.parse(body);
            requests.add(request);
            return script.apply(request);
        };
        Simulation simulation = new Simulation(ControllerSpec.read(manifest), client, TestServer.CLOCK);
        simulation.create(json("{'apiVersion':'test.metahook.dev/v1','kind':'Widget','metadata':{'name':'w','namespace':'default'},"
                + "'spec':{'data':'one'}}"));
        return simulation;
    }

    private static HookClient.Reply ok(String body) {
        return new HookClient.Reply(200, Map.of(), body.replace('\'', '"').getBytes(StandardCharsets.UTF_8), Duration.ZERO, null);
    }

    /** Answers one ConfigMap holding the parent's spec.data. */
    private static HookClient.Reply configMap(JsonNode request) {
        return ok("{'status':{'seen':" + request.at("/children/ConfigMap.v1").size() + "},'children':[{'apiVersion':'v1','kind':'ConfigMap',"
                + "'metadata':{'name':'w-data'},'data':{'value':'" + request.at("/parent/spec/data").asText() + "'}}]}");
    }

    private static ObjectNode configMap(Simulation simulation) {
        return simulation.store().get(new ChildId("v1", "ConfigMap", "default", "w-data")).orElseThrow();
    }

    private void edit(Simulation simulation, String data) {
        simulation.edit(json("{'apiVersion':'test.metahook.dev/v1','kind':'Widget','metadata':{'name':'w','namespace':'default'},"
                + "'spec':{'data':'" + data + "'}}"));
    }

    @Test
    void createsChildrenWithTheLastAppliedAnnotationAndAControllerReference() {
        Simulation simulation = simulation("InPlace", false, "v1", CompositeSimulatorTest::configMap);
        simulation.pass(PARENT, false);
        ObjectNode child = configMap(simulation);
        String uid = simulation.store().get(PARENT).orElseThrow().at("/metadata/uid").asText();
        assertEquals(uid, child.at("/metadata/labels/controller-uid").asText());
        assertEquals(json("{'apiVersion':'v1','data':{'value':'one'},'kind':'ConfigMap','metadata':{'labels':{'controller-uid':'" + uid
                + "'},'name':'w-data','namespace':'default'}}"),
                Json.parse(child.at("/metadata/annotations/metacontroller.k8s.io~1last-applied-configuration").asText().getBytes()));
        assertEquals(json("[{'apiVersion':'test.metahook.dev/v1','kind':'Widget','name':'w','uid':'" + uid
                + "','controller':true,'blockOwnerDeletion':true}]"), child.at("/metadata/ownerReferences"));
    }

    @Test
    void replacesTheParentStatusAndInjectsObservedGeneration() {
        Simulation simulation = simulation("InPlace", false, "v1", CompositeSimulatorTest::configMap);
        simulation.pass(PARENT, false);
        simulation.pass(PARENT, false);
        assertEquals(json("{'seen':1,'observedGeneration':1}"), simulation.store().get(PARENT).orElseThrow().get("status"));
    }

    @Test
    void updatesInPlaceWhenTheAnswerChanges() {
        Simulation simulation = simulation("InPlace", false, "v1", CompositeSimulatorTest::configMap);
        simulation.pass(PARENT, false);
        String uid = configMap(simulation).at("/metadata/uid").asText();
        edit(simulation, "two");
        simulation.pass(PARENT, false);
        assertEquals("two", configMap(simulation).at("/data/value").asText());
        assertEquals(uid, configMap(simulation).at("/metadata/uid").asText());
    }

    @Test
    void neverUpdatesOnDeleteChildren() {
        Simulation simulation = simulation("OnDelete", false, "v1", CompositeSimulatorTest::configMap);
        simulation.pass(PARENT, false);
        edit(simulation, "two");
        simulation.pass(PARENT, false);
        assertEquals("one", configMap(simulation).at("/data/value").asText());
    }

    @Test
    void recreatesRecreateChildrenOnTheNextPass() {
        Simulation simulation = simulation("Recreate", false, "v1", CompositeSimulatorTest::configMap);
        simulation.pass(PARENT, false);
        String uid = configMap(simulation).at("/metadata/uid").asText();
        edit(simulation, "two");
        simulation.pass(PARENT, false);
        assertTrue(simulation.store().get(new ChildId("v1", "ConfigMap", "default", "w-data")).isEmpty());
        simulation.pass(PARENT, false);
        assertEquals("two", configMap(simulation).at("/data/value").asText());
        assertFalse(uid.equals(configMap(simulation).at("/metadata/uid").asText()));
    }

    @Test
    void deletesChildrenTheAnswerLeavesOut() {
        Simulation simulation = simulation("InPlace", false, "v1",
                request -> request.at("/parent/spec/data").asText().equals("one") ? configMap(request) : ok("{'status':{},'children':[]}"));
        simulation.pass(PARENT, false);
        edit(simulation, "gone");
        simulation.pass(PARENT, false);
        assertTrue(simulation.store().get(new ChildId("v1", "ConfigMap", "default", "w-data")).isEmpty());
    }

    @Test
    void keysObservedChildrenAsTheHookVersionSays() {
        Simulation v2 = simulation("InPlace", false, "v2", CompositeSimulatorTest::configMap);
        v2.pass(PARENT, false);
        v2.pass(PARENT, false);
        assertTrue(requests.get(1).at("/children/ConfigMap.v1").has("default/w-data"), requests.get(1).toString());
        requests.clear();
        Simulation v1 = simulation("InPlace", false, "v1", CompositeSimulatorTest::configMap);
        v1.pass(PARENT, false);
        v1.pass(PARENT, false);
        assertTrue(requests.get(1).at("/children/ConfigMap.v1").has("w-data"));
        assertEquals(json("{}"), requests.get(0).at("/children/ConfigMap.v1"), "a declared group is present while empty");
    }

    @Test
    void changesNothingWhenTheHookFails() {
        Simulation simulation = simulation("InPlace", false, "v1", CompositeSimulatorTest::configMap);
        simulation.pass(PARENT, false);
        long writes = simulation.store().writes();
        Simulation failing = simulation;
        CompositeSimulator failingPass = new CompositeSimulator(failing.simulator().spec(), failing.store(),
                (hook, body) -> new HookClient.Reply(500, Map.of(), "{}".getBytes(), Duration.ZERO, null));
        CompositeSimulator.Pass pass = failingPass.sync(PARENT);
        assertEquals(CompositeSimulator.Outcome.FAILED, pass.outcome());
        assertEquals(writes, simulation.store().writes());
        CompositeSimulator empty = new CompositeSimulator(failing.simulator().spec(), failing.store(), (hook, body) -> ok("{'Children':[]}"));
        empty.sync(PARENT);
        assertTrue(simulation.store().get(new ChildId("v1", "ConfigMap", "default", "w-data")).isEmpty(),
                "a 200 with a misspelled key deletes every child, as in Metacontroller's loose mode");
    }

    @Test
    void waitsAsRetryAfterSaysOn429() {
        Simulation simulation = simulation("InPlace", false, "v1",
                request -> new HookClient.Reply(429, Map.of("Retry-After", "7"), new byte[0], Duration.ZERO, null));
        CompositeSimulator.Pass pass = simulation.pass(PARENT, false);
        assertEquals(CompositeSimulator.Outcome.RETRY_LATER, pass.outcome());
        assertEquals(Duration.ofSeconds(7), pass.retryAfter());
        assertNull(simulation.store().get(PARENT).orElseThrow().get("status"));
    }

    @Test
    void reportsResyncAfterSeconds() {
        Simulation simulation = simulation("InPlace", false, "v1", request -> ok("{'status':{},'children':[],'resyncAfterSeconds':2.5}"));
        assertEquals(Duration.ofMillis(2500), simulation.pass(PARENT, false).resyncAfter());
    }

    @Test
    void addsTheFinalizerAndRemovesItWhenFinalized() {
        Simulation simulation = simulation("InPlace", true, "v1", request -> request.path("finalizing").asBoolean()
                ? ok("{'status':{},'children':[],'finalized':" + (request.at("/children/ConfigMap.v1").size() == 0) + "}")
                : configMap(request));
        simulation.pass(PARENT, false);
        assertEquals("metacontroller.io/compositecontroller-widgets",
                simulation.store().get(PARENT).orElseThrow().at("/metadata/finalizers/0").asText());
        simulation.delete(PARENT);
        assertTrue(simulation.store().get(PARENT).isPresent(), "the finalizer holds the parent");
        simulation.pass(PARENT, false);
        assertTrue(simulation.store().get(new ChildId("v1", "ConfigMap", "default", "w-data")).isEmpty(), "children managed while finalizing");
        CompositeSimulator.Pass last = simulation.pass(PARENT, false);
        assertTrue(last.finalized());
        assertTrue(simulation.store().get(PARENT).isEmpty());
    }

    @Test
    void mergesListsByTheirConventionalKeyAndReplacesOthers() {
        JsonNode observed = json("{'ports':[{'port':80,'protocol':'TCP'},{'port':81}],'args':['a','b'],'kept':1,'dropped':2}");
        JsonNode lastApplied = json("{'ports':[{'port':80},{'port':81}],'args':['a','b'],'dropped':2}");
        JsonNode desired = json("{'ports':[{'port':80,'name':'http'}],'args':['c']}");
        assertEquals(json("{'ports':[{'port':80,'protocol':'TCP','name':'http'}],'args':['c'],'kept':1}"),
                ThreeWayMerge.merge(observed, lastApplied, desired));
    }
}
