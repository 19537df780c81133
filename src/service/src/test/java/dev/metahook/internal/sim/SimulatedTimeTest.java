package dev.metahook.internal.sim;

import dev.metahook.testkit.CheckReport;
import static dev.metahook.testing.StoredObjects.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.api.ChildId;
import dev.metahook.api.Controllers;
import dev.metahook.controllers.database.Database;
import dev.metahook.controllers.database.DatabaseController;
import dev.metahook.internal.engine.HookEngine;
import dev.metahook.testing.StoredObjects;
import dev.metahook.testing.TestServer;
import dev.metahook.internal.wire.Json;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** Time in the simulator: resyncs, retries after errors and 429s, a 409 from another writer; nothing sleeps. */
class SimulatedTimeTest {
    private static final ChildId PARENT = new ChildId("test.metahook.dev/v1", "Widget", "default", "w");

    private static Simulation simulation(String method, Function<JsonNode, HookClient.Reply> script) {
        ObjectNode manifest = (ObjectNode) json("{'apiVersion':'metacontroller.k8s.io/v1alpha1','kind':'CompositeController',"
                + "'metadata':{'name':'widgets'},'spec':{'generateSelector':true,"
                + "'parentResource':{'apiVersion':'test.metahook.dev/v1','resource':'widgets'},"
                + "'childResources':[{'apiVersion':'v1','resource':'configmaps','updateStrategy':{'method':'" + method + "'}}],"
                + "'hooks':{'sync':{'webhook':{'url':'http://hooks/sync'}}}}}");
        Simulation simulation = new Simulation(ControllerSpec.read(manifest), (hook, body) -> script.apply(Json.parse(body)), TestServer.CLOCK);
        simulation.create(widget("one"));
        return simulation;
    }

    private static JsonNode widget(String data) {
        return json("{'apiVersion':'test.metahook.dev/v1','kind':'Widget','metadata':{'name':'w','namespace':'default'},"
                + "'spec':{'data':'" + data + "'}}");
    }

    private static HookClient.Reply reply(int status, Map<String, String> headers, String body) {
        return new HookClient.Reply(status, headers, body.replace('\'', '"').getBytes(StandardCharsets.UTF_8), Duration.ZERO, null);
    }

    private static HookClient.Reply configMap(JsonNode request, String extra) {
        return reply(200, Map.of(), "{" + extra + "'children':[{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'w-data'},"
                + "'data':{'value':'" + request.at("/parent/spec/data").asText() + "'}}]}");
    }

    private static List<Duration> gaps(Simulation.Run run) {
        List<Duration> gaps = new ArrayList<>();
        for (int i = 1; i < run.times().size(); i++) {
            gaps.add(Duration.between(run.times().get(i - 1), run.times().get(i)));
        }
        return gaps;
    }

    @Test
    void resyncAfterSecondsCallsAgainOnTheVirtualClock() {
        Simulation simulation = simulation("InPlace", request -> configMap(request, "'resyncAfterSeconds':5,"));
        assertTrue(simulation.converge(PARENT, 10, true).converged());
        Instant before = simulation.clock().instant();
        long started = System.nanoTime();
        Simulation.Run idle = simulation.idle(PARENT, Duration.ofMinutes(1), 100);
        assertTrue(Duration.ofNanos(System.nanoTime() - started).compareTo(Duration.ofSeconds(30)) < 0, "no real waiting");
        assertEquals(Duration.ofMinutes(1), Duration.between(before, simulation.clock().instant()));
        assertEquals(12, idle.calls());
        assertTrue(gaps(idle).stream().allMatch(Duration.ofSeconds(5)::equals), gaps(idle).toString());
        assertEquals(12, idle.busiestMinute());
    }

    @Test
    void resyncPeriodSecondsSyncsEveryParentEveryPeriod() {
        ObjectNode manifest = (ObjectNode) json("{'apiVersion':'metacontroller.k8s.io/v1alpha1','kind':'CompositeController',"
                + "'metadata':{'name':'widgets'},'spec':{'generateSelector':true,'resyncPeriodSeconds':20,"
                + "'parentResource':{'apiVersion':'test.metahook.dev/v1','resource':'widgets'},"
                + "'childResources':[{'apiVersion':'v1','resource':'configmaps'}],'hooks':{'sync':{'webhook':{'url':'http://hooks/sync'}}}}}");
        Simulation simulation = new Simulation(ControllerSpec.read(manifest), (hook, body) -> configMap(Json.parse(body), ""), TestServer.CLOCK);
        simulation.create(widget("one"));
        assertTrue(simulation.converge(PARENT, 10, true).converged());
        Simulation.Run idle = simulation.idle(PARENT, Duration.ofMinutes(1), 100);
        assertEquals(3, idle.calls(), "one sync every 20 s: " + idle.times());
    }

    @Test
    void aFailingHookIsRetriedAfterTheRateLimitersDoublingDelays() {
        Simulation simulation = simulation("InPlace", request -> reply(500, Map.of(), "boom"));
        assertFalse(simulation.converge(PARENT, 5, true).converged());
        Simulation.Run idle = simulation.idle(PARENT, Duration.ofMinutes(1), 100);
        List<Duration> gaps = gaps(idle);
        for (int i = 1; i < gaps.size(); i++) {
            assertEquals(gaps.get(i - 1).multipliedBy(2), gaps.get(i), "5 ms doubled with every failure: " + gaps);
        }
        assertEquals(Duration.ofMillis(5 << 5), gaps.get(0), "the sixth failure in a row waits 160 ms");
        assertEquals(9, idle.calls(), "5 ms times 2^5 to 2^13: the retries that fall in the next minute");
    }

    @Test
    void aTooManyRequestsAnswerIsRetriedAfterItsRetryAfter() {
        int[] calls = {0};
        Simulation simulation = simulation("InPlace", request -> calls[0]++ == 0
                ? reply(429, Map.of("Retry-After", "30"), "{}") : configMap(request, ""));
        Instant start = simulation.clock().instant();
        Simulation.Run run = simulation.converge(PARENT, 10, true);
        assertTrue(run.converged());
        assertEquals(CompositeSimulator.Outcome.RETRY_LATER, run.passes().get(0).outcome());
        assertEquals(Duration.ofSeconds(30), Duration.between(start, run.times().get(1)));
    }

    /** A concurrent writer changes the ConfigMap while the hook answers: Metacontroller's update meets 409, the next sync applies. */
    @Test
    void anUpdateThatMeetsAConflictIsRetriedAndConverges() {
        Simulation simulation = simulation("InPlace", request -> configMap(request, ""));
        assertTrue(simulation.converge(PARENT, 10, true).converged());
        simulation.edit(widget("two"));
        simulation.writer().arm();
        Simulation.Run run = simulation.converge(PARENT, 10, true);
        assertTrue(run.converged());
        CompositeSimulator.Pass conflicted = run.passes().get(0);
        assertEquals(CompositeSimulator.Outcome.FAILED, conflicted.outcome());
        assertEquals("can't reconcile children for Widget default/w: Operation cannot be fulfilled on ConfigMap default/w-data: the object"
                + " has been modified; please apply your changes to the latest version and try again", conflicted.error());
        assertEquals(List.of(new ChildId("v1", "ConfigMap", "default", "w-data")), simulation.writer().written());
        assertEquals(Duration.ZERO, Duration.between(run.times().get(0), run.times().get(1)),
                "the status written despite the error is an event: the next sync comes at once");
        ObjectNode child = simulation.store().get(new ChildId("v1", "ConfigMap", "default", "w-data")).orElseThrow();
        assertEquals("two", child.at("/data/value").asText());
        assertEquals("1", child.at("/metadata/annotations/sim.metahook.dev~1concurrent-write").asText(), "the other writer's change is kept");
    }

    /** A hook that reacts to the other writer's change by answering something new every time never comes to rest. */
    @Test
    void checkReportsAHookThatDoesNotConvergeAfterAConflict() {
        ObjectNode manifest = (ObjectNode) json("{'apiVersion':'metacontroller.k8s.io/v1alpha1','kind':'CompositeController',"
                + "'metadata':{'name':'widgets'},'spec':{'generateSelector':true,"
                + "'parentResource':{'apiVersion':'test.metahook.dev/v1','resource':'widgets'},"
                + "'childResources':[{'apiVersion':'v1','resource':'configmaps','updateStrategy':{'method':'InPlace'}}],"
                + "'hooks':{'sync':{'webhook':{'url':'http://hooks/sync'}}}}}");
        HookClient fighting = (hook, body) -> {
            JsonNode request = Json.parse(body);
            JsonNode child = request.at("/children/ConfigMap.v1/w-data");
            boolean touched = child.at("/metadata/annotations").has(ConcurrentWriter.ANNOTATION);
            String value = touched ? child.at("/data/value").asText() + "+" : request.at("/parent/spec/data").asText();
            return reply(200, Map.of(), "{'children':[{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'w-data'},"
                    + "'data':{'value':'" + value + "'}}]}");
        };
        CheckReport report = new Checker(ControllerSpec.read(manifest), fighting, TestServer.CLOCK, 8).check(widget("one"), widget("two"));
        List<String> kinds = report.breaches().stream().map(CheckReport.Breach::kind).distinct().toList();
        assertTrue(kinds.contains("conflict"), report.breaches().toString());
        assertTrue(kinds.contains("hot-loop"), report.breaches().toString());
    }

    @Test
    void checkReportsTheCallsPerSimulatedMinuteOfAFailingBackup() {
        HookEngine engine = new HookEngine(Controllers.builder()
                .composite("database", Database.class, new DatabaseController("simulated time test key".getBytes())).build(), TestServer.CLOCK);
        ControllerSpec spec = ControllerSpec.read(StoredObjects.manifest("metacontroller/database-controller.yaml"));
        CheckReport report = new Checker(spec, new InProcessHook(engine, "database"), TestServer.CLOCK, 20)
                .check(StoredObjects.manifest("examples/database.yaml"), null);
        assertEquals(List.of(), report.breaches());
        assertEquals(0, report.rates().atRest());
        assertEquals("deleting, pods never ready and Jobs failing", report.rates().stalledDoing());
        assertTrue(report.rates().stalled() >= 12, "a finalize every 5 s while the backup Job retries: " + report.rates());
    }
}
