package dev.metahook.internal.sim;

import dev.metahook.testkit.CheckReport;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.api.ChildId;
import dev.metahook.api.Controllers;
import dev.metahook.controllers.webapp.WebApp;
import dev.metahook.controllers.webapp.WebAppController;
import dev.metahook.internal.engine.HookEngine;
import dev.metahook.testing.StoredObjects;
import dev.metahook.testing.TestServer;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The hook calls and child writes the simulator counts per phase, as docs/testing-hooks.md compares them with a real
 * Metacontroller v1.5.14: a sync only for an event, and the writes the real cluster showed.
 */
class CallCountsTest {
    private static final HookEngine ENGINE = new HookEngine(Controllers.builder()
            .composite("webapp", WebApp.class, new WebAppController()).build(), TestServer.CLOCK);
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

    @Test
    void aWebAppsLifeCountsAsTheDocsSay() {
        ObjectNode updated = StoredObjects.manifest("examples/webapp.yaml");
        updated.withObjectProperty("spec").put("image", "ghcr.io/example/hello:1.5.0").put("replicas", 3);
        CheckReport report = new Checker(SPEC, new InProcessHook(ENGINE, "webapp"), TestServer.CLOCK, 20)
                .check(StoredObjects.manifest("examples/webapp.yaml"), updated);
        assertTrue(report.clean(), report.breaches().toString());
        Map<String, String> phases = new LinkedHashMap<>();
        for (CheckReport.Phase phase : report.phases()) {
            phases.put(phase.name(), phase.calls() + "/" + phase.writes());
        }
        assertEquals("3/2", phases.get("create"), "create: the Deployment and the Service; " + phases);
        assertEquals("5/0", phases.get("converge"), "a new Deployment's pods at once, ready together: " + phases);
        assertEquals("0/0", phases.get("at rest"), phases.toString());
        assertEquals("1/1", phases.get("409"), "the retry after the conflict: the one Deployment update of the change, " + phases);
        assertEquals("13/0", phases.get("change"), phases.toString());
        assertEquals(14, report.phases().stream().filter(phase -> phase.name().equals("change") || phase.name().equals("409"))
                .mapToInt(CheckReport.Phase::calls).sum(), "the real cluster made 15");
    }
}
