package dev.metahook.internal.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.api.ChildId;
import dev.metahook.api.Controllers;
import dev.metahook.controllers.webapp.WebApp;
import dev.metahook.controllers.webapp.WebAppController;
import dev.metahook.examples.Examples;
import dev.metahook.internal.engine.HookEngine;
import dev.metahook.testing.StoredObjects;
import dev.metahook.testing.TestServer;
import dev.metahook.testkit.CheckReport;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The hook calls and child writes the simulator counts per phase, as docs/testing-hooks.md compares them with a real
 * Metacontroller v4.17.2 on Kubernetes 1.37.2: the writes the real cluster made, and calls within a quarter of its
 * (WebApp create 4, WebApp change 12, BlueGreen template change 10), or apart for the reason the docs give (Database
 * create 3, CatSet create 6). One life each, on Kubernetes 1.37.
 */
class CallCountsTest {
    private static final HookEngine ENGINE = new HookEngine(Controllers.builder()
            .composite("webapp", WebApp.class, new WebAppController()).build(), TestServer.CLOCK);
    private static final HookEngine EXAMPLES = new HookEngine(Examples.addTo(Controllers.builder()).build(), TestServer.CLOCK);
    private static final ControllerSpec SPEC = ControllerSpec.read(StoredObjects.manifest("metacontroller/webapp-controller.yaml"));

    @Test
    void aRunRightAfterAnotherWithoutAnEventMakesNoSync() {
        Simulation simulation = new Simulation(SPEC, new InProcessHook(ENGINE, "webapp"), TestServer.CLOCK);
        ChildId parent = simulation.create(StoredObjects.manifest("examples/webapp.yaml"));
        assertTrue(simulation.converge(parent, 10, false).converged());
        Simulation.Run again = simulation.converge(parent, 10, false, false);
        assertEquals(0, again.passes().size(), "no event, no sync: " + again.passes());
        assertTrue(again.converged());

        Simulation.Run workloads = simulation.converge(parent, 10, true, false);
        assertTrue(workloads.converged());
        assertEquals(simulation.times().get(simulation.times().size() - workloads.passes().size()),
                TestServer.CLOCK.instant().plus(WorkloadControllers.STEP),
                "the first sync of converging is for the workloads' first step, a step after the create");
    }

    /** The Deployment controller's reactions (observedGeneration, the new pods) share the syncs of the create; only the pods' start is a step. */
    @Test
    void theDeploymentControllersReactionsShareTheSyncsOfTheWriteTheyAnswer() {
        Simulation simulation = new Simulation(SPEC, new InProcessHook(ENGINE, "webapp"), TestServer.CLOCK);
        ChildId parent = simulation.create(StoredObjects.manifest("examples/webapp.yaml"));
        Simulation.Run created = simulation.converge(parent, 10, false);
        assertEquals(3, created.passes().size(), "the create, the sync its writes cause, the sync its status write causes");
        ObjectNode deployment = simulation.store().get(new ChildId("apps/v1", "Deployment", "default", "hello")).orElseThrow();
        assertEquals(2, deployment.at("/status/replicas").asInt(), "the pods were created at once: " + deployment.path("status"));
        assertEquals(0, deployment.at("/status/readyReplicas").asInt(), "none ready before the kubelet's step");
        assertTrue(simulation.times().stream().allMatch(TestServer.CLOCK.instant()::equals), "all at the instant of the create");
    }

    @Test
    void aWebAppsLifeCountsAsTheDocsSay() {
        ObjectNode updated = StoredObjects.manifest("examples/webapp.yaml");
        updated.withObjectProperty("spec").put("image", "ghcr.io/example/hello:1.5.0").put("replicas", 3);
        CheckReport report = new Checker(SPEC, new InProcessHook(ENGINE, "webapp"), TestServer.CLOCK, 20, Versions.NEWEST)
                .check(StoredObjects.manifest("examples/webapp.yaml"), updated);
        assertTrue(report.clean(), report.breaches().toString());
        Map<String, String> phases = phases(report);
        assertEquals("3/2", phases.get("create"), "create: the Deployment and the Service; " + phases);
        assertEquals("2/0", phases.get("converge"), "the pods ready together, then the status that says so: " + phases);
        assertEquals("0/0", phases.get("at rest"), phases.toString());
        assertEquals("11/0", phases.get("change"), "one pod of surge at a time, each ready pod a step: " + phases);
        assertEquals("1/1", phases.get("409"), "the retry after the conflict: the one Deployment update of the change, " + phases);
        assertEquals(5, calls(report, "create", "converge"), "the real cluster made 4");
        assertEquals(12, calls(report, "change", "409"), "the real cluster made 12");
    }

    @Test
    void aDatabasesCreateCountsAsTheDocsSay() {
        ControllerSpec spec = ControllerSpec.read(StoredObjects.manifest("metacontroller/database-controller.yaml"));
        HookEngine engine = new HookEngine(Controllers.builder().composite("database", dev.metahook.controllers.database.Database.class,
                new dev.metahook.controllers.database.DatabaseController("a key of sixteen bytes or more".getBytes(java.nio.charset.StandardCharsets.UTF_8))).build(),
                TestServer.CLOCK);
        CheckReport report = new Checker(spec, new InProcessHook(engine, "database"), TestServer.CLOCK, 20, Versions.NEWEST)
                .check(StoredObjects.manifest("examples/database.yaml"), null);
        assertTrue(report.clean(), report.breaches().toString());
        Map<String, String> phases = phases(report);
        assertEquals("3/4", phases.get("create"), "Pending, then Provisioning once the StatefulSet is observed: " + phases);
        assertEquals("2/0", phases.get("converge"), "the primary ready, then Ready written: " + phases);
    }

    @Test
    void aBlueGreenTemplateChangeCountsAsTheDocsSay() {
        ObjectNode parent = StoredObjects.manifest("examples/bluegreen/my-bluegreen.yaml");
        ObjectNode updated = parent.deepCopy();
        ((ObjectNode) updated.at("/spec/template/metadata/labels")).put("release", "two");
        CheckReport report = example("bluegreen", parent, updated);
        Map<String, String> phases = phases(report);
        assertEquals("10/2", phases.get("change"), phases.toString());
        assertEquals("1/1", phases.get("409"), phases.toString());
        assertEquals(11, calls(report, "change", "409"), "the real cluster made 10");
    }

    @Test
    void aCatSetsCreateCountsAsTheDocsSay() {
        CheckReport report = example("catset", StoredObjects.manifest("examples/catset/my-catset.yaml"), null);
        Map<String, String> phases = phases(report);
        assertEquals("3/4", phases.get("create"), phases.toString());
        assertEquals("8/2", phases.get("converge"), "three syncs per pod made ready, the last but its status: " + phases);
    }

    private static CheckReport example(String name, ObjectNode parent, ObjectNode updated) {
        ControllerSpec spec = ControllerSpec.read(StoredObjects.manifest("examples/" + name + "/controller.yaml"))
                .withDefinitions(List.of(StoredObjects.manifest("examples/" + name + "/crd.yaml")));
        CheckReport report = new Checker(spec, new InProcessHook(EXAMPLES, name), TestServer.CLOCK, 20, Versions.NEWEST)
                .check(parent, updated);
        assertTrue(report.clean(), report.breaches().toString());
        return report;
    }

    private static Map<String, String> phases(CheckReport report) {
        Map<String, String> phases = new LinkedHashMap<>();
        for (CheckReport.Phase phase : report.phases()) {
            phases.put(phase.name(), phase.calls() + "/" + phase.writes());
        }
        return phases;
    }

    private static int calls(CheckReport report, String... names) {
        return report.phases().stream().filter(phase -> List.of(names).contains(phase.name())).mapToInt(CheckReport.Phase::calls).sum();
    }
}
