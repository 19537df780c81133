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
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The workload controllers and the kubelet, step by step, in the forms a real v1.20 cluster showed. */
class WorkloadControllersTest {
    private final VirtualClock clock = new VirtualClock(TestServer.CLOCK.instant());
    private final ObjectStore store = new ObjectStore(clock);

    private List<JsonNode> steps(WorkloadControllers controllers, ChildId ref) {
        List<JsonNode> seen = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            var due = controllers.nextDue(store);
            if (due.isEmpty()) {
                break;
            }
            clock.advanceTo(due.get());
            if (controllers.step(store)) {
                seen.add(store.get(ref).orElseThrow().path("status"));
            }
        }
        return seen;
    }

    private static List<String> counts(List<JsonNode> statuses, String... fields) {
        List<String> counts = new ArrayList<>();
        for (JsonNode status : statuses) {
            StringBuilder line = new StringBuilder();
            for (String field : fields) {
                line.append(line.length() == 0 ? "" : " ").append(status.path(field).asInt(0));
            }
            counts.add(line.toString());
        }
        return counts;
    }

    @Test
    void aNewDeploymentShowsObservedGenerationFirstThenEveryPodAtOnceReadyTogether() {
        ChildId ref = Ids.of(store.create(json("{'apiVersion':'apps/v1','kind':'Deployment','metadata':{'name':'web',"
                + "'namespace':'default'},'spec':{'replicas':2,'template':{'spec':{'containers':[{'name':'app','image':'app:1'}]}}}}")));
        List<JsonNode> steps = steps(new WorkloadControllers(clock, false), ref);
        // no old pods to keep available: the ReplicaSet gets every replica at once, and pods started together are ready together
        assertEquals(List.of("1 0 0 0 0", "1 2 2 0 0", "1 2 2 2 2"),
                counts(steps, "observedGeneration", "replicas", "updatedReplicas", "readyReplicas", "availableReplicas"));
        JsonNode done = steps.get(steps.size() - 1);
        assertEquals("NewReplicaSetAvailable", done.at("/conditions/1/reason").asText());
        assertFalse(steps.get(0).has("replicas"), "a Deployment leaves its zero counts out");

        ObjectNode changed = store.get(ref).orElseThrow();
        ((ObjectNode) changed.at("/spec/template/spec/containers/0")).put("image", "app:2");
        store.update(changed);
        assertEquals(List.of("2 2 0 2", "2 3 1 2", "2 3 2 2", "2 2 2 2"),
                counts(steps(new WorkloadControllers(clock, false), ref), "observedGeneration", "replicas", "updatedReplicas",
                        "availableReplicas"), "a new template rolls out with one pod of surge, old pods going as new ones are ready");
    }

    @Test
    void aStatefulSetScaledToZeroWritesReplicasZeroInTheFieldsTheRealOneWrites() {
        ChildId ref = Ids.of(store.create(json("{'apiVersion':'apps/v1','kind':'StatefulSet','metadata':{'name':'db',"
                + "'namespace':'default'},'spec':{'replicas':2,'template':{'spec':{'containers':[{'name':'db','image':'db:1'}]}}}}")));
        assertEquals(List.of("1 0 0", "1 1 0", "1 1 1", "1 2 1", "1 2 2"),
                counts(steps(new WorkloadControllers(clock, false), ref), "observedGeneration", "replicas", "readyReplicas"),
                "one ordinal at a time, each ready before the next");
        ObjectNode drained = store.get(ref).orElseThrow();
        drained.withObjectProperty("spec").put("replicas", 0);
        store.update(drained);
        List<JsonNode> steps = steps(new WorkloadControllers(clock, true), ref);
        JsonNode empty = steps.get(steps.size() - 1);
        assertEquals(0, empty.path("replicas").intValue());
        JsonNode captured = Fixtures.json("captured/v1.5.14-metahook-database-finalize-backingup.request.json")
                .at("/children/StatefulSet.apps~1v1/orders/status");
        Set<String> current = new TreeSet<>(fields(captured));
        current.add("availableReplicas");
        assertEquals(current, fields(empty), "the fields a drained StatefulSet's status had on the real cluster (v1.20), and "
                + "availableReplicas, which the API server stores always since 1.22 (0 included)");
        assertEquals(0, empty.path("availableReplicas").intValue());
    }

    @Test
    void aPodIsPendingWhenCreatedAsTheApiServerWritesItThenRunsAndIsReady() {
        ChildId ref = Ids.of(store.create(json("{'apiVersion':'v1','kind':'Pod','metadata':{'name':'p','namespace':'default'},"
                + "'spec':{'containers':[{'name':'c','image':'c:1'}]}}")));
        JsonNode captured = Fixtures.json("captured/real-run-3/b2f-catset-change-rolling-catset-sync-235.request.json")
                .at("/children/Pod.v1/nginx-backend-0/status");
        assertEquals(captured, store.get(ref).orElseThrow().path("status"), "a new pod as the real API server stored it");
        List<JsonNode> steps = steps(new WorkloadControllers(clock, false), ref);
        assertEquals(1, steps.size());
        assertEquals(json("{'phase':'Running','qosClass':'BestEffort','conditions':[{'type':'Ready','status':'True'}]}"), steps.get(0));
    }

    @Test
    void aPodWithAReadinessGateNobodySetsRunsButIsNeverReady() {
        ChildId ref = Ids.of(store.create(json("{'apiVersion':'v1','kind':'Pod','metadata':{'name':'p','namespace':'default'},"
                + "'spec':{'readinessGates':[{'conditionType':'example.com/lb'}],'containers':[{'name':'c','image':'c:1',"
                + "'resources':{'limits':{'cpu':'1','memory':'1Gi'}}}]}}")));
        assertEquals("Guaranteed", store.get(ref).orElseThrow().at("/status/qosClass").asText());
        JsonNode status = steps(new WorkloadControllers(clock, false), ref).get(0);
        assertEquals("Running", status.path("phase").asText());
        assertEquals(json("{'type':'Ready','status':'False','reason':'ReadinessGatesNotReady'}"), status.at("/conditions/0"));
    }

    @Test
    void aJobCompletesOrInABrokenClusterFailsUntilItsBackoffLimitWithGrowingDelays() {
        ChildId ok = Ids.of(store.create(json("{'apiVersion':'batch/v1','kind':'Job','metadata':{'name':'ok','namespace':'default'},"
                + "'spec':{'template':{'spec':{'containers':[{'name':'c','image':'c:1'}]}}}}")));
        List<JsonNode> steps = steps(new WorkloadControllers(clock, false), ok);
        assertEquals(1, steps.get(0).path("active").intValue());
        assertEquals(List.of("SuccessCriteriaMet", "Complete"), types(steps.get(steps.size() - 1)),
                "Complete after SuccessCriteriaMet, which a current API server requires");
        assertEquals(1, steps.get(steps.size() - 1).path("succeeded").intValue());

        ChildId failing = Ids.of(store.create(json("{'apiVersion':'batch/v1','kind':'Job','metadata':{'name':'failing',"
                + "'namespace':'default'},'spec':{'backoffLimit':2,'template':{'spec':{'containers':[{'name':'c','image':'c:1'}]}}}}")));
        WorkloadControllers broken = new WorkloadControllers(clock, true);
        List<Instant> failures = new ArrayList<>();
        JsonNode last = null;
        for (int i = 0; i < 50 && broken.nextDue(store).isPresent(); i++) {
            clock.advanceTo(broken.nextDue(store).get());
            int before = store.get(failing).orElseThrow().path("status").path("failed").asInt(0);
            broken.step(store);
            last = store.get(failing).orElseThrow().path("status");
            if (last.path("failed").asInt(0) > before) {
                failures.add(clock.instant());
            }
        }
        assertEquals(3, failures.size(), "backoffLimit 2: the third failure is the last");
        assertEquals(Duration.ofSeconds(11), Duration.between(failures.get(0), failures.get(1)), "retried 10 s after, running a step");
        assertEquals(Duration.ofSeconds(21), Duration.between(failures.get(1), failures.get(2)), "then 20 s after");
        assertEquals("BackoffLimitExceeded", last.at("/conditions/0/reason").asText());
        assertEquals(List.of("FailureTarget", "Failed"), types(last), "Failed after FailureTarget, which a current API server requires");
        assertTrue(broken.nextDue(store).isEmpty(), "a failed Job stays failed");
    }

    private static List<String> types(JsonNode status) {
        List<String> types = new ArrayList<>();
        status.path("conditions").forEach(condition -> types.add(condition.path("type").asText()));
        return types;
    }

    private static Set<String> fields(JsonNode object) {
        Set<String> names = new TreeSet<>();
        for (Iterator<String> it = object.fieldNames(); it.hasNext(); ) {
            names.add(it.next());
        }
        return names;
    }
}
