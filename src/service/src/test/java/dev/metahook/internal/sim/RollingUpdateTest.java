package dev.metahook.internal.sim;

import dev.metahook.testkit.CheckReport;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.api.ChildId;
import dev.metahook.api.Controllers;
import dev.metahook.internal.contract.Breach;
import dev.metahook.internal.engine.HookEngine;
import dev.metahook.examples.catset.CatSet;
import dev.metahook.examples.catset.CatSetController;
import dev.metahook.testing.Fixtures;
import dev.metahook.testing.StoredObjects;
import dev.metahook.testing.TestServer;
import dev.metahook.internal.wire.Json;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * RollingRecreate as a real Metacontroller v1.5.14 ran it for a CatSet whose image changed
 * ({@code fixtures/captured/real-run-3}, calls 231 to 250): ControllerRevisions named as the real
 * ones, the hook called once per revision, one pod per sync after the status checks, the
 * {@code Updated} condition in the parent's status.
 */
class RollingUpdateTest {
    private static final String CAPTURED = "captured/real-run-3/b2f-catset-change-rolling-catset-sync-";
    private static final HookEngine ENGINE = new HookEngine(Controllers.builder()
            .composite("catset", CatSet.class, new CatSetController()).build(), TestServer.CLOCK);
    private static final ControllerSpec SPEC = ControllerSpec.read(StoredObjects.manifest("examples/catset/controller.yaml"));
    private static final ChildId PARENT = new ChildId("ctl.enisoc.com/v1", "CatSet", "default", "nginx-backend");
    /** The Metacontroller the captures come from; the rollout is its (v4.10.3 and later stall it: below). */
    private static final Versions CAPTURED_ON = new Versions(KubernetesVersion.NEWEST, new MetacontrollerVersion(1, 5, 14));

    /** The captured CatSet's spec with another image: what the person applied. */
    private static ObjectNode catSet(String image) {
        ObjectNode parent = Json.object().put("apiVersion", "ctl.enisoc.com/v1").put("kind", "CatSet");
        parent.putObject("metadata").put("name", "nginx-backend").put("namespace", "default");
        ObjectNode spec = Fixtures.json(CAPTURED + "231.request.json").path("parent").path("spec").deepCopy();
        ((ObjectNode) spec.at("/template/spec/containers/0")).put("image", "nginxinc/nginx-unprivileged:" + image);
        parent.set("spec", spec);
        return parent;
    }

    private static Simulation simulation(HookClient hooks) {
        return new Simulation(SPEC, hooks, TestServer.CLOCK, CAPTURED_ON);
    }

    private static JsonNode updated(JsonNode parent) {
        for (JsonNode condition : parent.path("status").path("conditions")) {
            if ("Updated".equals(condition.path("type").asText())) {
                return condition;
            }
        }
        return Json.object();
    }

    @Test
    void revisionsAreNamedAsTheRealOnesAfterTheParentsUidAndTemplate() {
        ControllerRevisions revisions = new ControllerRevisions(SPEC, new ObjectStore(TestServer.CLOCK));
        JsonNode latest = Fixtures.json(CAPTURED + "231.request.json").path("parent");
        JsonNode old = Fixtures.json(CAPTURED + "232.request.json").path("parent");
        String oldName = revisions.name(old, revisions.patch(old));
        assertEquals("latest ControllerRevision: " + oldName, updated(latest).path("message").asText(),
                "the revision the rollout started from, as the real one named it");
        assertEquals("latest ControllerRevision: " + revisions.name(latest, revisions.patch(latest)),
                updated(Fixtures.json(CAPTURED + "250.request.json").path("parent")).path("message").asText());
        assertEquals(old.path("metadata"), latest.path("metadata"), "the old revision's call carries the same generation and metadata");
    }

    @Test
    void walksTheRolloutOnePodPerSyncInTheAnswersOrderWithTheUpdatedCondition() {
        Simulation simulation = simulation(new InProcessHook(ENGINE, "catset"));
        simulation.create(catSet("1.29-alpine"));
        assertTrue(simulation.converge(PARENT, 20, true).converged());
        assertEquals("OnLatestRevision", updated(simulation.store().get(PARENT).orElseThrow()).path("reason").asText());
        assertEquals(List.of("1.29-alpine", "1.29-alpine", "1.29-alpine"), images(simulation));

        simulation.edit(catSet("1.30-alpine"));
        Simulation.Run rollout = simulation.converge(PARENT, 20, true);
        assertTrue(rollout.converged());

        List<String> messages = new ArrayList<>();
        List<Integer> calls = new ArrayList<>();
        for (CompositeSimulator.Pass pass : rollout.passes()) {
            String message = RollingUpdateTest.updated(pass.calls().get(0).request().path("parent")).path("message").asText();
            calls.add(pass.calls().size());
            if (pass.calls().size() == 2) {
                JsonNode latest = pass.calls().get(0).request().path("parent");
                JsonNode old = pass.calls().get(1).request().path("parent");
                assertEquals("nginxinc/nginx-unprivileged:1.29-alpine", old.at("/spec/template/spec/containers/0/image").asText());
                assertEquals(latest.path("metadata"), old.path("metadata"), "the same generation and resourceVersion");
                assertEquals(latest.path("children"), old.path("children"));
            }
            if (messages.isEmpty() || !messages.get(messages.size() - 1).equals(message)) {
                messages.add(message);
            }
        }
        String last = updated(simulation.store().get(PARENT).orElseThrow()).path("message").asText();
        if (!messages.get(messages.size() - 1).equals(last)) {
            messages.add(last);
        }
        String ready = "failed status check: required condition type missing: \"Ready\"";
        assertEquals(List.of(messages.get(0),
                "updating Pod nginx-backend-2", "missing child Pod nginx-backend-2", "child Pod nginx-backend-2 " + ready,
                "updating Pod nginx-backend-1", "missing child Pod nginx-backend-1", "child Pod nginx-backend-1 " + ready,
                "updating Pod nginx-backend-0", last), messages, "the Updated condition each sync saw");
        assertTrue(last.startsWith("latest ControllerRevision: catsets.ctl.enisoc.com-"), last);
        // The capture was made when metahook's engine sorted children by name, so the port then answered (and the real
        // Metacontroller rolled) nginx-backend-0 first; the port now answers the highest ordinal first, as its original.
        List<String> mirrored = captured().stream().map(RollingUpdateTest::mirrorOrdinals).toList();
        assertTrue(isSubsequence(mirrored, messages), "the simulator's conditions hold the captured run's: " + mirrored + " in " + messages);

        int lastPair = calls.lastIndexOf(2);
        assertTrue(calls.subList(0, lastPair + 1).stream().allMatch(n -> n == 2), "two revisions, two calls per sync: " + calls);
        assertTrue(calls.subList(lastPair + 1, calls.size()).stream().allMatch(n -> n == 1), "then one revision: " + calls);
        assertTrue(calls.size() - lastPair - 1 >= 2, "as in the captured run, single calls once the old revision is gone: " + calls);

        List<JsonNode> revisions = simulation.store().all().stream().filter(o -> o.path("kind").asText().equals("ControllerRevision"))
                .map(JsonNode.class::cast).toList();
        assertEquals(1, revisions.size(), "the emptied revision is deleted");
        assertEquals(StoredObjects.json("[{'apiGroup':'','kind':'Pod','names':['nginx-backend-2','nginx-backend-1','nginx-backend-0']}]"),
                revisions.get(0).path("children"));
        assertEquals("latest ControllerRevision: " + revisions.get(0).at("/metadata/name").asText(), last);
        assertEquals(List.of("1.30-alpine", "1.30-alpine", "1.30-alpine"), images(simulation));
    }

    /** Metacontroller rolls in the order of the latest answer, whatever the names say. */
    @Test
    void rollsInTheOrderTheHookReturnedTheChildren() {
        InProcessHook catset = new InProcessHook(ENGINE, "catset");
        HookClient reversed = (hook, body) -> {
            HookClient.Reply reply = catset.call(hook, body);
            ObjectNode answer = (ObjectNode) Json.parse(reply.body());
            List<JsonNode> children = new ArrayList<>();
            answer.path("children").forEach(children::add);
            ArrayNode backwards = answer.putArray("children");
            for (int i = children.size() - 1; i >= 0; i--) {
                backwards.add(children.get(i));
            }
            return new HookClient.Reply(reply.status(), reply.headers(), Json.mapper().valueToTree(answer).toString()
                    .getBytes(StandardCharsets.UTF_8), reply.took(), reply.error());
        };
        Simulation simulation = simulation(reversed);
        simulation.create(catSet("1.29-alpine"));
        assertTrue(simulation.converge(PARENT, 20, true).converged());
        simulation.edit(catSet("1.30-alpine"));
        List<String> moved = new ArrayList<>();
        for (CompositeSimulator.Pass pass : simulation.converge(PARENT, 20, true).passes()) {
            String message = updated(pass.calls().get(0).request().path("parent")).path("message").asText();
            if (message.startsWith("updating ") && !moved.contains(message)) {
                moved.add(message);
            }
        }
        String last = updated(simulation.store().get(PARENT).orElseThrow()).path("message").asText();
        if (last.startsWith("updating ")) {
            moved.add(last);
        }
        assertEquals(List.of("updating Pod nginx-backend-0", "updating Pod nginx-backend-1", "updating Pod nginx-backend-2"), moved,
                "the catset port answers the highest ordinal first, as its original; this hook reverses that");
    }

    @Test
    void checkIsCleanForTheRolloutAndReportsOneWhoseNewPodsNeverBecomeReady() {
        CheckReport clean = new Checker(SPEC, new InProcessHook(ENGINE, "catset"), TestServer.CLOCK, 20, CAPTURED_ON)
                .check(catSet("1.29-alpine"), catSet("1.30-alpine"));
        assertEquals(List.of(), clean.breaches());

        ObjectNode gated = catSet("1.30-alpine");
        ((ObjectNode) gated.at("/spec/template/spec")).putArray("readinessGates").addObject().put("conditionType", "example.com/load-balancer");
        CheckReport stuck = new Checker(SPEC, new InProcessHook(ENGINE, "catset"), TestServer.CLOCK, 20, CAPTURED_ON)
                .check(catSet("1.29-alpine"), gated);
        assertEquals(List.of(new Breach("rollout-stuck", "after spec change, the rollout never reached the latest revision: the parent's"
                + " Updated condition is RolloutWaiting: child Pod nginx-backend-2 failed status check: \"Ready\" condition status is"
                + " \"False\" (want \"True\")")), stuck.breaches().stream().map(found -> new Breach(found.kind(), found.message())).toList());
    }

    /**
     * From v4.10.3 Metacontroller keys observed children by namespace/name and its rolling update looks them up by
     * name: the first pod moved is "missing" for good. check says so as Metacontroller's finding, not the hook's.
     */
    @Test
    void fromV4103TheRolloutOfNamespacedPodsStallsAfterTheFirstAndCheckSaysItIsMetacontrollers() {
        for (String release : new String[] {"4.10.3", "4.17.2"}) {
            Versions versions = new Versions(KubernetesVersion.NEWEST, MetacontrollerVersion.parse(release));
            List<CheckReport.Breach> stalled = new Checker(SPEC, new InProcessHook(ENGINE, "catset"), TestServer.CLOCK, 20, versions)
                    .check(catSet("1.29-alpine"), catSet("1.30-alpine")).breaches();
            assertEquals(List.of("metacontroller-stalls-rollout"), stalled.stream().map(CheckReport.Breach::kind).toList(), release);
            assertTrue(stalled.get(0).message().contains("Metacontroller v" + release + " (every release from v4.10.3 on) moved Pod"
                    + " nginx-backend-2 to the latest revision") && stalled.get(0).message().contains("Updated=False RolloutWaiting:"
                    + " missing child Pod nginx-backend-2") && stalled.get(0).message().contains("OnDelete or Recreate"), stalled.toString());
        }
        Versions before = new Versions(KubernetesVersion.NEWEST, MetacontrollerVersion.parse("v4.10.2"));
        assertEquals(List.of(), new Checker(SPEC, new InProcessHook(ENGINE, "catset"), TestServer.CLOCK, 20, before)
                .check(catSet("1.29-alpine"), catSet("1.30-alpine")).breaches());
    }

    /** RollingInPlace waits for each updated child's controller to observe its new spec before it moves the next. */
    @Test
    void rollingInPlaceWaitsForTheObservedGenerationOfEachUpdatedChild() {
        ObjectNode manifest = (ObjectNode) StoredObjects.json("{'apiVersion':'metacontroller.k8s.io/v1alpha1','kind':'CompositeController',"
                + "'metadata':{'name':'fleets'},'spec':{'generateSelector':true,'parentResource':{'apiVersion':'test.metahook.dev/v1',"
                + "'resource':'fleets','revisionHistory':{'fieldPaths':['spec.image']}},'childResources':[{'apiVersion':'apps/v1',"
                + "'resource':'deployments','updateStrategy':{'method':'RollingInPlace'}}],'hooks':{'sync':{'webhook':{'url':'http://h/s'}}}}}");
        HookClient fleet = (hook, body) -> {
            JsonNode request = Json.parse(body);
            StringBuilder children = new StringBuilder();
            for (String name : new String[] {"b", "a"}) {
                children.append(children.length() == 0 ? "" : ",").append("{'apiVersion':'apps/v1','kind':'Deployment','metadata':{'name':'")
                        .append(name).append("'},'spec':{'selector':{'matchLabels':{'app':'").append(name).append("'}},'template':{'metadata':"
                        + "{'labels':{'app':'").append(name).append("'}},'spec':{'containers':[{'name':'app','image':'")
                        .append(request.at("/parent/spec/image").asText()).append("'}]}}}}");
            }
            return new HookClient.Reply(200, Map.of(), ("{'children':[" + children + "]}").replace('\'', '"').getBytes(StandardCharsets.UTF_8),
                    java.time.Duration.ZERO, null);
        };
        Simulation simulation = new Simulation(ControllerSpec.read(manifest), fleet, TestServer.CLOCK, CAPTURED_ON);
        ChildId parent = simulation.create(StoredObjects.json("{'apiVersion':'test.metahook.dev/v1','kind':'Fleet','metadata':"
                + "{'name':'f','namespace':'default'},'spec':{'image':'app:1'}}"));
        assertTrue(simulation.converge(parent, 20, true).converged());
        simulation.edit(StoredObjects.json("{'apiVersion':'test.metahook.dev/v1','kind':'Fleet','metadata':{'name':'f',"
                + "'namespace':'default'},'spec':{'image':'app:2'}}"));
        List<String> messages = new ArrayList<>();
        for (CompositeSimulator.Pass pass : simulation.converge(parent, 20, true).passes()) {
            String message = updated(pass.calls().get(0).request().path("parent")).path("message").asText();
            if (messages.isEmpty() || !messages.get(messages.size() - 1).equals(message)) {
                messages.add(message);
            }
        }
        messages.add(updated(simulation.store().get(parent).orElseThrow()).path("message").asText());
        assertEquals(List.of("updating Deployment b", "child Deployment b with RollingInPlace update strategy hasn't observed latest spec",
                "updating Deployment a"), messages.subList(1, 4), messages.toString());
        assertTrue(messages.get(messages.size() - 1).startsWith("latest ControllerRevision: fleets.test.metahook.dev-"), messages.toString());
    }

    @Test
    void theUpdatedConditionReplacesTheHooksOwnOrJoinsItsConditionsAndStatusChecksSayWhyAsMetacontrollerDoes() {
        ObjectNode condition = (ObjectNode) StoredObjects.json("{'type':'Updated','status':'True','reason':'OnLatestRevision','message':'m'}");
        assertEquals(StoredObjects.json("{'conditions':[{'type':'Ready','status':'True'},{'type':'Updated','status':'True',"
                + "'reason':'OnLatestRevision','message':'m'}]}"),
                RollingUpdate.withCondition(StoredObjects.json("{'conditions':[{'type':'Ready','status':'True'},{'type':'Updated',"
                        + "'status':'False'}]}"), condition));
        assertEquals(StoredObjects.json("{'conditions':[{'type':'Updated','status':'True','reason':'OnLatestRevision','message':'m'}]}"),
                RollingUpdate.withCondition(null, condition), "no status from the hook: the condition alone");
        JsonNode checks = StoredObjects.json("{'conditions':[{'type':'Ready','status':'True','reason':'Verified'}]}");
        assertEquals("required condition type missing: \"Ready\"", RollingUpdate.statusCheck(checks, Json.object()));
        assertEquals("\"Ready\" condition reason is \"\" (want \"Verified\")", RollingUpdate.statusCheck(checks,
                StoredObjects.json("{'status':{'conditions':[{'type':'Ready','status':'True'}]}}")));
        assertEquals(null, RollingUpdate.statusCheck(Json.object(), Json.object()), "no status checks: nothing to wait for");
    }

    /** The Updated messages the captured parents carried, 231 to 250, each once in a row. */
    private static List<String> captured() {
        List<String> messages = new ArrayList<>();
        for (int seq = 231; seq <= 250; seq++) {
            String message = updated(Fixtures.json(CAPTURED + seq + ".request.json").path("parent")).path("message").asText();
            if (messages.isEmpty() || !messages.get(messages.size() - 1).equals(message)) {
                messages.add(message);
            }
        }
        return messages.subList(1, messages.size());
    }

    /** nginx-backend-0 and nginx-backend-2 swapped: the captured rollout in the order the port answers today. */
    private static String mirrorOrdinals(String message) {
        return message.replace("nginx-backend-0", "nginx-backend-#").replace("nginx-backend-2", "nginx-backend-0")
                .replace("nginx-backend-#", "nginx-backend-2");
    }

    private static boolean isSubsequence(List<String> part, List<String> whole) {
        int at = 0;
        for (String item : whole) {
            String wanted = at < part.size() ? part.get(at) : null;
            if (wanted != null && (item.equals(wanted) || wanted.startsWith("latest ") && item.startsWith("latest "))) {
                at++;
            }
        }
        return at == part.size();
    }

    private static List<String> images(Simulation simulation) {
        Map<String, String> images = new TreeMap<>();
        simulation.store().all().stream().filter(o -> o.path("kind").asText().equals("Pod")).forEach(pod -> images.put(
                pod.at("/metadata/name").asText(), pod.at("/spec/containers/0/image").asText().replaceAll(".*:", "")));
        return new ArrayList<>(images.values());
    }
}
