package dev.metahook.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.sim.ControllerSpec;
import dev.metahook.sim.HttpHook;
import dev.metahook.sim.ObjectRef;
import dev.metahook.sim.Simulation;
import dev.metahook.testing.Cluster;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * metahook's controllers against a real kube-apiserver and garbage collector (src/e2e/control-plane),
 * Metacontroller played by the simulator writing through the API server, the hook service running as
 * {@code target/metahook.jar}. The test plays the kubelet and workload controllers by writing status.
 */
class EndToEndIT {
    private static Path dir;
    private static Process hookService;
    private static KubernetesClient client;
    private static int port;

    @BeforeAll
    static void start() throws Exception {
        dir = Files.createTempDirectory("metahook-e2e");
        run(Duration.ofMinutes(20), "bash", "src/e2e/control-plane", "start", dir.toString());
        run(Duration.ofMinutes(2), "kubectl", "apply", "-f", "metacontroller/crd-webapps.yaml", "-f", "metacontroller/crd-databases.yaml");
        run(Duration.ofMinutes(2), "kubectl", "wait", "--for=condition=established", "--timeout=60s",
                "crd/webapps.metahook.dev", "crd/databases.metahook.dev");
        run(Duration.ofMinutes(2), "bash", "src/e2e/control-plane", "controllers", dir.toString());
        client = new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(Files.readString(dir.resolve("kubeconfig")))).build();
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        ProcessBuilder builder = new ProcessBuilder("java", "-jar", "target/metahook.jar").redirectErrorStream(true)
                .redirectOutput(dir.resolve("metahook.log").toFile());
        builder.environment().put("PORT", Integer.toString(port));
        builder.environment().put("HOST", "127.0.0.1");
        builder.environment().put("METAHOOK_DATABASE_KEY", "an end-to-end test key");
        hookService = builder.start();
        waitFor(() -> {
            try {
                return URI.create("http://127.0.0.1:" + port + "/readyz").toURL().openConnection().getInputStream().readAllBytes().length > 0;
            } catch (java.io.IOException notYet) {
                return false;
            }
        });
    }

    @AfterAll
    static void stop() throws Exception {
        if (hookService != null) {
            hookService.destroy();
            hookService.waitFor(30, TimeUnit.SECONDS);
        }
        if (client != null) {
            client.close();
        }
        run(Duration.ofMinutes(1), "bash", "src/e2e/control-plane", "stop", dir.toString());
    }

    private static Simulation simulation(String controller, List<String[]> kinds) {
        ControllerSpec spec = ControllerSpec.read(Cluster.manifest("metacontroller/" + controller + "-controller.yaml"));
        return new Simulation(spec, HttpHook.of(spec, URI.create("http://127.0.0.1:" + port)),
                new ApiServerCluster(client, "default", kinds));
    }

    private static String reasons(Simulation simulation, ObjectRef parent) {
        StringBuilder out = new StringBuilder();
        simulation.store().get(parent).orElseThrow().at("/status/conditions").forEach(c -> out.append(out.length() == 0 ? "" : " ")
                .append(c.get("type").asText()).append('=').append(c.get("status").asText()).append('/').append(c.get("reason").asText()));
        return out.toString();
    }

    @Test
    void webAppGoesFromCreatingToAvailableRollsAndGoesAwayWithItsChildren() throws Exception {
        Simulation simulation = simulation("webapp", List.of(new String[] {"metahook.dev/v1", "WebApp"},
                new String[] {"apps/v1", "Deployment"}, new String[] {"v1", "Service"}));
        ObjectRef parent = simulation.create(Cluster.manifest("examples/webapp.yaml"));
        simulation.pass(parent, false);
        assertEquals("Ready=False/Creating Reconciling=True/Creating Stalled=False/Creating", reasons(simulation, parent));
        assertTrue(simulation.converge(parent, 10, false).converged());
        ObjectNode deployment = simulation.store().get(new ObjectRef("apps/v1", "Deployment", "default", "hello")).orElseThrow();
        assertEquals("WebApp", deployment.at("/metadata/ownerReferences/0/kind").asText());
        assertTrue(deployment.at("/metadata/ownerReferences/0/controller").asBoolean());
        assertTrue(simulation.store().get(new ObjectRef("v1", "Service", "default", "hello")).orElseThrow().at("/spec/clusterIP").isTextual());

        assertTrue(simulation.converge(parent, 10, true).converged());
        assertEquals("Ready=True/Available Reconciling=False/Available Stalled=False/Available", reasons(simulation, parent));

        ObjectNode edited = Cluster.manifest("examples/webapp.yaml");
        edited.with("spec").put("image", "ghcr.io/example/hello:1.5.0");
        simulation.edit(edited);
        assertTrue(simulation.converge(parent, 10, true).converged());
        assertEquals("ghcr.io/example/hello:1.5.0", simulation.store().get(new ObjectRef("apps/v1", "Deployment", "default", "hello"))
                .orElseThrow().at("/spec/template/spec/containers/0/image").asText());
        assertEquals("Available", simulation.store().get(parent).orElseThrow().at("/status/conditions/0/reason").asText());

        assertNotEquals(0, exitCode("kubectl", "patch", "webapp", "hello", "--type=merge", "-p", "{\"spec\":{\"port\":70000}}"),
                "the CRD schema refuses an invalid port");

        String uid = simulation.store().get(parent).orElseThrow().at("/metadata/uid").asText();
        assertEquals(2, simulation.store().ownedBy(uid).size());
        simulation.delete(parent);
        waitFor(() -> simulation.store().ownedBy(uid).isEmpty());
    }

    @Test
    void databaseIsProvisionedStallsOnABadEditAndIsTornDownStepByStep() throws Exception {
        Simulation simulation = simulation("database", List.of(new String[] {"metahook.dev/v1", "Database"},
                new String[] {"v1", "Secret"}, new String[] {"v1", "Service"}, new String[] {"apps/v1", "StatefulSet"},
                new String[] {"batch/v1", "Job"}));
        ObjectRef parent = simulation.create(Cluster.manifest("examples/database.yaml"));
        assertTrue(simulation.converge(parent, 10, false).converged());
        assertEquals("Provisioning", simulation.store().get(parent).orElseThrow().at("/status/phase").asText());
        assertTrue(simulation.converge(parent, 10, true).converged());
        assertEquals("Ready", simulation.store().get(parent).orElseThrow().at("/status/phase").asText());
        ObjectRef statefulSet = new ObjectRef("apps/v1", "StatefulSet", "default", "orders");
        JsonNode before = simulation.store().get(statefulSet).orElseThrow().at("/metadata/resourceVersion");

        ObjectNode edited = Cluster.manifest("examples/database.yaml");
        edited.with("spec").put("storage", "2Gi");
        simulation.edit(edited);
        assertTrue(simulation.converge(parent, 10, true).converged());
        assertEquals("Failed", simulation.store().get(parent).orElseThrow().at("/status/phase").asText());
        assertEquals(before, simulation.store().get(statefulSet).orElseThrow().at("/metadata/resourceVersion"),
                "a spec the controller refuses touches no child");

        String uid = simulation.store().get(parent).orElseThrow().at("/metadata/uid").asText();
        simulation.delete(parent);
        simulation.pass(parent, false);
        assertEquals(0, simulation.store().get(statefulSet).orElseThrow().at("/spec/replicas").intValue());
        assertTrue(simulation.converge(parent, 20, true).converged());
        assertTrue(simulation.store().get(parent).isEmpty(), "finalized and deleted");
        waitFor(() -> simulation.store().ownedBy(uid).isEmpty());
    }

    private static void run(Duration limit, String... command) throws Exception {
        assertEquals(0, exitCode(limit, command), String.join(" ", command));
    }

    private static int exitCode(String... command) throws Exception {
        return exitCode(Duration.ofMinutes(1), command);
    }

    private static int exitCode(Duration limit, String... command) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(command).inheritIO();
        if (dir != null && Files.exists(dir.resolve("kubeconfig"))) {
            builder.environment().put("KUBECONFIG", dir.resolve("kubeconfig").toString());
        }
        Process process = builder.start();
        if (!process.waitFor(limit.toSeconds(), TimeUnit.SECONDS)) {
            process.destroyForcibly();
            return -1;
        }
        return process.exitValue();
    }

    private static void waitFor(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met within 60 s");
            }
            Thread.sleep(200);
        }
    }

}
