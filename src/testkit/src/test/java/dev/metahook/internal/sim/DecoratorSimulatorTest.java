package dev.metahook.internal.sim;

import static dev.metahook.testing.StoredObjects.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.api.ChildId;
import dev.metahook.testing.Fixtures;
import dev.metahook.testing.TestServer;
import dev.metahook.internal.wire.Json;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A DecoratorController pass: labels merged, status left alone unless answered, attachments applied;
 * its selectors: a target that stops matching is finalized and then left alone, as the captured run
 * of a real Metacontroller shows.
 */
class DecoratorSimulatorTest {
    private static final ChildId TARGET = new ChildId("apps/v1", "StatefulSet", "default", "web");
    private static final String CAPTURED = "captured/real-run-3/b3e-spp-annotation-removed";
    private static final String SERVICE = "{'apiVersion':'v1','kind':'Service','metadata':{'name':'web-0'},'spec':{'ports':[{'port':80}]}}";

    /** A decorator of StatefulSets labelled {@code decorate=yes}, with a Service attachment, and a finalize hook when asked. */
    private static ControllerSpec selecting(boolean finalize) {
        return ControllerSpec.read(json("{'apiVersion':'metacontroller.k8s.io/v1alpha1','kind':'DecoratorController',"
                + "'metadata':{'name':'service-per-pod'},'spec':{'resources':[{'apiVersion':'apps/v1','resource':'statefulsets',"
                + "'labelSelector':{'matchLabels':{'decorate':'yes'}}}],"
                + "'attachments':[{'apiVersion':'v1','resource':'services','updateStrategy':{'method':'InPlace'}}],"
                + "'hooks':{'sync':{'webhook':{'url':'http://hooks/sync'}}" + (finalize ? ",'finalize':{'webhook':{'url':'http://hooks/finalize'}}" : "")
                + "}}}"));
    }

    /** A hook that answers the Service on sync, and on finalize no attachments, finalized once none is observed; every call kept. */
    private static HookClient servicePerPod(List<JsonNode> calls) {
        return (hook, body) -> {
            JsonNode request = Json.parse(body);
            calls.add(request);
            String answer = hook.equals("finalize")
                    ? "{'attachments':[],'finalized':" + request.at("/attachments/Service.v1").isEmpty() + "}"
                    : "{'labels':{'decorated':'yes'},'attachments':[" + SERVICE + "]}";
            return new HookClient.Reply(200, Map.of(), answer.replace('\'', '"').getBytes(StandardCharsets.UTF_8), Duration.ZERO, null);
        };
    }

    private static ObjectNode labelled(String labels) {
        return (ObjectNode) json("{'apiVersion':'apps/v1','kind':'StatefulSet','metadata':{'name':'web','namespace':'default','labels':"
                + labels + "},'spec':{'replicas':1}}");
    }

    @Test
    void aTargetThatLosesItsLabelIsFinalizedItsAttachmentsGoAndThenItIsLeftAlone() {
        List<JsonNode> calls = new ArrayList<>();
        Simulation simulation = new Simulation(selecting(true), servicePerPod(calls), TestServer.CLOCK);
        ChildId target = simulation.create(labelled("{'decorate':'yes'}"));
        assertTrue(simulation.converge(target, 10, false).converged());
        ChildId service = new ChildId("v1", "Service", "default", "web-0");
        assertTrue(simulation.store().get(service).isPresent());
        calls.clear();

        ObjectNode unlabelled = simulation.store().get(target).orElseThrow();
        ((ObjectNode) unlabelled.withObjectProperty("metadata").get("labels")).remove("decorate");
        simulation.store().update(unlabelled);
        Simulation.Run run = simulation.converge(target, 10, false);

        assertTrue(run.converged());
        assertEquals(List.of(true, true), calls.stream().map(call -> call.path("finalizing").asBoolean()).toList(),
                "finalize, not sync, for a target no longer selected, until it says finalized");
        assertEquals(List.of(1, 0), calls.stream().map(call -> call.at("/attachments/Service.v1").size()).toList());
        assertFalse(simulation.store().get(service).isPresent(), "the attachment the finalize answer left out is deleted");
        ObjectNode after = simulation.store().get(target).orElseThrow();
        assertFalse(after.path("metadata").has("finalizers"), "the finalizer goes, the target stays");
        assertEquals("yes", after.at("/metadata/labels/decorated").asText(), "its labels stay as the decorator left them");
        assertEquals(CompositeSimulator.Outcome.IGNORED, run.last().outcome());
        assertEquals(CompositeSimulator.Outcome.IGNORED, simulation.pass(target, true).outcome(), "no more calls for it");
        assertEquals(2, calls.size());

        ObjectNode relabelled = simulation.store().get(target).orElseThrow();
        relabelled.withObjectProperty("metadata").withObjectProperty("labels").put("decorate", "yes");
        simulation.store().update(relabelled);
        simulation.converge(target, 10, false);
        assertFalse(calls.get(2).path("finalizing").asBoolean(), "selected again: sync");
        assertTrue(simulation.store().get(service).isPresent());
        assertEquals("metacontroller.io/decoratorcontroller-service-per-pod",
                simulation.store().get(target).orElseThrow().at("/metadata/finalizers/0").asText());
    }

    @Test
    void withoutAFinalizeHookATargetThatLosesItsLabelKeepsItsAttachmentsAndGetsNoCall() {
        List<JsonNode> calls = new ArrayList<>();
        Simulation simulation = new Simulation(selecting(false), servicePerPod(calls), TestServer.CLOCK);
        ChildId target = simulation.create(labelled("{'decorate':'yes'}"));
        simulation.converge(target, 10, false);
        int before = calls.size();
        ObjectNode unlabelled = simulation.store().get(target).orElseThrow();
        ((ObjectNode) unlabelled.withObjectProperty("metadata").get("labels")).remove("decorate");
        simulation.store().update(unlabelled);

        assertEquals(CompositeSimulator.Outcome.IGNORED, simulation.pass(target, true).outcome());
        assertEquals(before, calls.size());
        assertTrue(simulation.store().get(new ChildId("v1", "Service", "default", "web-0")).isPresent());
    }

    @Test
    void aTargetItsOwnDecorationUnselectsIsSyncedOnce() {
        List<JsonNode> calls = new ArrayList<>();
        ControllerSpec spec = ControllerSpec.read(json("{'apiVersion':'metacontroller.k8s.io/v1alpha1','kind':'DecoratorController',"
                + "'metadata':{'name':'label-once'},'spec':{'resources':[{'apiVersion':'apps/v1','resource':'statefulsets',"
                + "'labelSelector':{'matchExpressions':[{'key':'decorated','operator':'DoesNotExist'}]}}],"
                + "'attachments':[{'apiVersion':'v1','resource':'services'}],'hooks':{'sync':{'webhook':{'url':'http://hooks/sync'}}}}}"));
        Simulation simulation = new Simulation(spec, servicePerPod(calls), TestServer.CLOCK);
        ChildId target = simulation.create(labelled("{'app':'web'}"));
        Simulation.Run run = simulation.converge(target, 10, true);
        assertEquals(1, calls.size(), "the label it adds makes the selector miss: Metacontroller syncs it once");
        assertEquals(List.of(CompositeSimulator.Outcome.APPLIED, CompositeSimulator.Outcome.IGNORED),
                run.passes().stream().map(CompositeSimulator.Pass::outcome).toList());
    }

    /**
     * The captured run: service-per-pod's StatefulSet lost an annotation its selector requires, and
     * Metacontroller called finalize with its three Services (the answer kept none, so they were
     * deleted), finalize again with none (finalized: the finalizer was removed), and nothing after.
     */
    @Test
    void aTargetThatStopsMatchingIsFinalizedAsTheCapturedRunShows() throws Exception {
        JsonNode request = Fixtures.json(CAPTURED + "-service-per-pod-finalize-559.request.json");
        byte[] keepsNone = Fixtures.bytes(CAPTURED + "-service-per-pod-finalize-559.response.json");
        byte[] finalized = Fixtures.bytes(CAPTURED + "-service-per-pod-finalize-560-finalized.response.json");
        List<JsonNode> calls = new ArrayList<>();
        HookClient hook = (name, body) -> {
            ObjectNode sent = (ObjectNode) Json.parse(body);
            calls.add(sent.put("hook", name));
            return new HookClient.Reply(200, Map.of(), sent.at("/attachments/Service.v1").isEmpty() ? finalized : keepsNone, Duration.ZERO, null);
        };
        ControllerSpec spec = ControllerSpec.read(request.path("controller"));
        Simulation simulation = new Simulation(spec, hook, TestServer.CLOCK);
        ChildId target = simulation.create(request.path("object"));
        request.at("/attachments/Service.v1").forEach(service -> simulation.store().create(service));

        Simulation.Run run = simulation.converge(target, 10, false);

        List<JsonNode> index = new String(Fixtures.bytes(CAPTURED + ".index.jsonl"), StandardCharsets.UTF_8).lines()
                .map(line -> Json.parse(line.getBytes(StandardCharsets.UTF_8))).toList();
        assertEquals(index.stream().map(call -> call.path("path").asText().replace("/service-per-pod/", "")).toList(),
                calls.stream().map(call -> call.path("hook").asText()).toList());
        assertEquals(index.stream().map(call -> call.at("/observed/Service.v1").toString()).toList(),
                calls.stream().map(call -> Json.mapper().valueToTree(names(call.at("/attachments/Service.v1"))).toString()).toList());
        assertEquals(index.stream().map(call -> call.path("finalized").asBoolean()).toList(), run.passes().stream()
                .filter(pass -> pass.call() != null).map(CompositeSimulator.Pass::finalized).toList());
        assertTrue(calls.stream().allMatch(call -> call.path("finalizing").asBoolean()));
        assertEquals(CompositeSimulator.Outcome.IGNORED, run.last().outcome(), "after the finalizer went, no more calls");
        assertFalse(simulation.store().get(target).orElseThrow().path("metadata").has("finalizers"));
        assertEquals(List.of(), simulation.store().all().stream().filter(object -> object.path("kind").asText().equals("Service")).toList());
    }

    private static List<String> names(JsonNode group) {
        List<String> names = new ArrayList<>();
        group.forEach(object -> names.add(object.at("/metadata/name").asText()));
        return names;
    }

    @Test
    void decoratesTheTargetAndManagesItsAttachments() {
        AtomicReference<String> answer = new AtomicReference<>("{'labels':{'decorated':'yes','old':null},"
                + "'attachments':[{'apiVersion':'v1','kind':'Service','metadata':{'name':'web-0'},'spec':{'ports':[{'port':80}]}}]}");
        ControllerSpec spec = ControllerSpec.read(json("{'apiVersion':'metacontroller.k8s.io/v1alpha1','kind':'DecoratorController',"
                + "'metadata':{'name':'service-per-pod'},'spec':{'resources':[{'apiVersion':'apps/v1','resource':'statefulsets'}],"
                + "'attachments':[{'apiVersion':'v1','resource':'services','updateStrategy':{'method':'InPlace'}}],"
                + "'hooks':{'sync':{'webhook':{'url':'http://hooks/sync'}},'finalize':{'webhook':{'url':'http://hooks/finalize'}}}}}"));
        ObjectStore store = new ObjectStore(TestServer.CLOCK);
        DecoratorSimulator simulator = new DecoratorSimulator(spec, store, (hook, body) -> new HookClient.Reply(200, Map.of(),
                (hook.equals("finalize") ? "{'attachments':[],'finalized':true}" : answer.get()).replace('\'', '"')
                        .getBytes(StandardCharsets.UTF_8), Duration.ZERO, null));
        store.create(json("{'apiVersion':'apps/v1','kind':'StatefulSet','metadata':{'name':'web','namespace':'default',"
                + "'labels':{'old':'x','app':'web'}},'spec':{'replicas':1},'status':{'replicas':1}}"));

        simulator.sync(TARGET);
        ObjectNode target = store.get(TARGET).orElseThrow();
        assertEquals(json("{'app':'web','decorated':'yes'}"), target.at("/metadata/labels"));
        assertEquals(json("{'replicas':1}"), target.get("status"), "no status in the answer leaves it alone");
        assertEquals("metacontroller.io/decoratorcontroller-service-per-pod", target.at("/metadata/finalizers/0").asText());
        ObjectNode service = store.get(new ChildId("v1", "Service", "default", "web-0")).orElseThrow();
        assertEquals("service-per-pod", service.at("/metadata/annotations/metacontroller.k8s.io~1decorator-controller").asText());
        assertEquals(target.at("/metadata/uid"), service.at("/metadata/ownerReferences/0/uid"));

        answer.set("{'status':{'decorated':true},'attachments':[]}");
        simulator.sync(TARGET);
        assertFalse(store.get(new ChildId("v1", "Service", "default", "web-0")).isPresent());
        assertEquals(json("{'decorated':true}"), store.get(TARGET).orElseThrow().get("status"));

        store.delete(TARGET);
        assertTrue(simulator.sync(TARGET).finalized());
        assertFalse(store.get(TARGET).isPresent());
    }
}
