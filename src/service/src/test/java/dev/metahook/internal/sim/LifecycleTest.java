package dev.metahook.internal.sim;

import static dev.metahook.testing.StoredObjects.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.api.ChildId;
import dev.metahook.controllers.database.Database;
import dev.metahook.controllers.database.DatabaseController;
import dev.metahook.controllers.webapp.WebApp;
import dev.metahook.controllers.webapp.WebAppController;
import dev.metahook.api.Controllers;
import dev.metahook.internal.engine.HookEngine;
import dev.metahook.testing.StoredObjects;
import dev.metahook.testing.TestServer;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Both reference controllers through whole lifecycles, Metacontroller played by the simulator. */
class LifecycleTest {
    private static final HookEngine ENGINE = new HookEngine(Controllers.builder()
            .composite("webapp", WebApp.class, new WebAppController())
            .composite("database", Database.class, new DatabaseController("lifecycle test key".getBytes()))
            .build(), TestServer.CLOCK);

    private static Simulation simulation(String controller) {
        ControllerSpec spec = ControllerSpec.read(StoredObjects.manifest("metacontroller/" + controller + "-controller.yaml"));
        return new Simulation(spec, new InProcessHook(ENGINE, controller), TestServer.CLOCK);
    }

    private static String conditions(ObjectNode parent) {
        StringBuilder out = new StringBuilder();
        parent.at("/status/conditions").forEach(c -> out.append(out.length() == 0 ? "" : " ")
                .append(c.get("type").asText()).append('=').append(c.get("status").asText()).append('/').append(c.get("reason").asText()));
        return out.toString();
    }

    private static ObjectNode get(Simulation simulation, String apiVersion, String kind, String name) {
        return simulation.store().get(new ChildId(apiVersion, kind, "default", name)).orElseThrow(() -> new AssertionError(kind + " " + name));
    }

    @Test
    void webAppIsCreatedConvergesRollsAndGoesAway() {
        Simulation simulation = simulation("webapp");
        ChildId parent = simulation.create(StoredObjects.manifest("examples/webapp.yaml"));

        assertTrue(simulation.converge(parent, 10, false).converged());
        ObjectNode webApp = simulation.store().get(parent).orElseThrow();
        assertEquals("Ready=False/RollingOut Reconciling=True/RollingOut Stalled=False/RollingOut", conditions(webApp));
        ObjectNode deployment = get(simulation, "apps/v1", "Deployment", "hello");
        assertEquals(webApp.at("/metadata/uid").asText(), deployment.at("/metadata/labels/controller-uid").asText());
        assertEquals(json("[{'apiVersion':'metahook.dev/v1','kind':'WebApp','name':'hello','uid':'" + webApp.at("/metadata/uid").asText()
                + "','controller':true,'blockOwnerDeletion':true}]"), deployment.at("/metadata/ownerReferences"));
        assertTrue(deployment.at("/metadata/annotations/metacontroller.k8s.io~1last-applied-configuration").isTextual());
        assertEquals(1, webApp.at("/status/observedGeneration").intValue());

        Simulation.Run ready = simulation.converge(parent, 10, true);
        assertTrue(ready.converged());
        assertEquals("Ready=True/Available Reconciling=False/Available Stalled=False/Available",
                conditions(simulation.store().get(parent).orElseThrow()));
        long writes = simulation.store().writes();
        simulation.pass(parent, true);
        assertEquals(writes, simulation.store().writes(), "a second sync after convergence changes nothing");

        ObjectNode edited = StoredObjects.manifest("examples/webapp.yaml");
        edited.withObjectProperty("spec").put("image", "ghcr.io/example/hello:1.5.0").put("replicas", 3);
        simulation.edit(edited);
        simulation.pass(parent, false);
        assertEquals("ghcr.io/example/hello:1.5.0", get(simulation, "apps/v1", "Deployment", "hello")
                .at("/spec/template/spec/containers/0/image").asText());
        assertEquals(2, get(simulation, "apps/v1", "Deployment", "hello").at("/metadata/generation").intValue());
        assertTrue(simulation.converge(parent, 10, true).converged());
        ObjectNode rolled = simulation.store().get(parent).orElseThrow();
        assertEquals("Ready=True/Available Reconciling=False/Available Stalled=False/Available", conditions(rolled));
        assertEquals(3, rolled.at("/status/availableReplicas").intValue());
        assertEquals(2, rolled.at("/status/observedGeneration").intValue());

        simulation.delete(parent);
        assertEquals(List.of(), simulation.store().all(), "the garbage collector takes the children with the parent");
    }

    @Test
    void anInvalidEditStallsAndLeavesTheRunningAppAlone() {
        Simulation simulation = simulation("webapp");
        ChildId parent = simulation.create(StoredObjects.manifest("examples/webapp.yaml"));
        simulation.converge(parent, 10, true);
        ObjectNode before = get(simulation, "apps/v1", "Deployment", "hello");
        ObjectNode edited = StoredObjects.manifest("examples/webapp.yaml");
        edited.withObjectProperty("spec").put("port", 0);
        simulation.edit(edited);
        assertTrue(simulation.converge(parent, 10, true).converged());
        assertEquals(before, get(simulation, "apps/v1", "Deployment", "hello"));
        assertEquals("Ready=False/InvalidSpec Reconciling=False/InvalidSpec Stalled=True/InvalidSpec",
                conditions(simulation.store().get(parent).orElseThrow()));
    }

    @Test
    void databaseIsProvisionedAndTornDownStepByStep() {
        Simulation simulation = simulation("database");
        ChildId parent = simulation.create(StoredObjects.manifest("examples/database.yaml"));
        assertTrue(simulation.converge(parent, 10, false).converged());
        assertEquals("Provisioning", simulation.store().get(parent).orElseThrow().at("/status/phase").asText());
        assertTrue(simulation.converge(parent, 10, true).converged());
        ObjectNode database = simulation.store().get(parent).orElseThrow();
        assertEquals("Ready", database.at("/status/phase").asText());
        assertEquals(List.of("metacontroller.io/compositecontroller-database-controller"),
                List.of(database.at("/metadata/finalizers/0").asText()));
        String password = get(simulation, "v1", "Secret", "orders-credentials").at("/data/password").asText();

        simulation.delete(parent);
        simulation.pass(parent, false);
        assertEquals("Draining", reconciling(simulation, parent));
        assertEquals(0, get(simulation, "apps/v1", "StatefulSet", "orders").at("/spec/replicas").intValue());
        assertTrue(simulation.store().get(new ChildId("v1", "Service", "default", "orders")).isEmpty(), "clients stop connecting");
        WorkloadControllers.settle(simulation.store());
        simulation.pass(parent, false);
        assertEquals("BackingUp", reconciling(simulation, parent));
        ObjectNode job = get(simulation, "batch/v1", "Job", "orders-final-backup");
        assertEquals("postgres:16", job.at("/spec/template/spec/containers/0/image").asText());
        assertEquals(password, get(simulation, "v1", "Secret", "orders-credentials").at("/data/password").asText());
        WorkloadControllers.settle(simulation.store());
        CompositeSimulator.Pass done = simulation.pass(parent, false);
        assertTrue(done.finalized());
        assertEquals(List.of(), simulation.store().all(), "the Database and its children are gone");
    }

    /** The retained claim data-orders-0 outlives the Database: created again (a new uid), it must get the password the data has. */
    @Test
    void aDatabaseDeletedAndCreatedAgainKeepsItsPassword() {
        Simulation simulation = simulation("database");
        ChildId parent = simulation.create(StoredObjects.manifest("examples/database.yaml"));
        simulation.converge(parent, 10, true);
        String uid = simulation.store().get(parent).orElseThrow().at("/metadata/uid").asText();
        String password = get(simulation, "v1", "Secret", "orders-credentials").at("/data/password").asText();
        ObjectNode gone = StoredObjects.manifest("examples/database.yaml");
        gone.withObjectProperty("spec").put("deletionPolicy", "Delete");
        simulation.edit(gone);
        simulation.delete(parent);
        assertTrue(simulation.pass(parent, false).finalized());
        assertEquals(List.of(), simulation.store().all(), "the Secret went with the Database");

        simulation.create(StoredObjects.manifest("examples/database.yaml"));
        assertTrue(simulation.converge(parent, 10, true).converged());
        assertFalse(uid.equals(simulation.store().get(parent).orElseThrow().at("/metadata/uid").asText()), "a new uid");
        assertEquals(password, get(simulation, "v1", "Secret", "orders-credentials").at("/data/password").asText());
    }

    @Test
    void aFailedBackupStallsUntilThePolicySaysDelete() {
        Simulation simulation = simulation("database");
        ChildId parent = simulation.create(StoredObjects.manifest("examples/database.yaml"));
        simulation.converge(parent, 10, true);
        simulation.delete(parent);
        simulation.pass(parent, true);
        simulation.pass(parent, false);
        ChildId job = new ChildId("batch/v1", "Job", "default", "orders-final-backup");
        simulation.store().setStatus(job, json("{'failed':3,'conditions':[{'type':'Failed','status':'True'}]}"));
        assertTrue(simulation.converge(parent, 10, false).converged(), "no retry storm while a person has to act");
        assertEquals("BackupFailed", reconciling(simulation, parent));
        assertEquals("True", simulation.store().get(parent).orElseThrow().at("/status/conditions/2/status").asText());
        assertTrue(simulation.store().get(job).isPresent(), "the failed Job is kept, not silently retried");

        ObjectNode edited = StoredObjects.manifest("examples/database.yaml");
        edited.withObjectProperty("spec").put("deletionPolicy", "Delete");
        simulation.edit(edited);
        assertTrue(simulation.pass(parent, false).finalized());
        assertFalse(simulation.store().get(parent).isPresent());
    }

    /** The workloads take steps, as on a cluster: every status the parent was given on the way, in order, each once. */
    private static List<String> reasons(Simulation.Run run) {
        List<String> reasons = new java.util.ArrayList<>();
        for (CompositeSimulator.Pass pass : run.passes()) {
            String reason = pass.call().response().at("/status/conditions/0/reason").asText();
            if (reasons.isEmpty() || !reasons.get(reasons.size() - 1).equals(reason)) {
                reasons.add(reason);
            }
        }
        return reasons;
    }

    @Test
    void aWebAppRollsOutAndADatabaseProvisionsBeforeTheyAreReady() {
        Simulation webapp = simulation("webapp");
        ChildId app = webapp.create(StoredObjects.manifest("examples/webapp.yaml"));
        assertEquals(List.of("RollingOut", "Available"), reasons(webapp.converge(app, 10, true)).subList(1, 3),
                "created, rolling out, then available");
        ObjectNode edited = StoredObjects.manifest("examples/webapp.yaml");
        edited.withObjectProperty("spec").put("image", "ghcr.io/example/hello:1.5.0").put("replicas", 3);
        webapp.edit(edited);
        Simulation.Run rolled = webapp.converge(app, 10, true);
        assertEquals(List.of("RollingOut", "Available"), reasons(rolled));
        List<String> messages = new java.util.ArrayList<>();
        rolled.passes().forEach(pass -> messages.add(pass.call().response().at("/status/conditions/0/message").asText()));
        assertTrue(messages.contains("2/3 replicas available, 1/3 updated"), "old pods serve while new ones start: " + messages);

        Simulation database = simulation("database");
        ChildId db = database.create(StoredObjects.manifest("examples/database.yaml"));
        assertEquals(List.of("Pending", "Provisioning", "PrimaryReady"), reasons(database.converge(db, 10, true)));
    }

    private static String reconciling(Simulation simulation, ChildId parent) {
        JsonNode conditions = simulation.store().get(parent).orElseThrow().at("/status/conditions");
        return conditions.get(1).get("reason").asText();
    }
}
