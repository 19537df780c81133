package dev.metahook.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.api.ChildId;
import dev.metahook.internal.sim.CompositeSimulator;
import dev.metahook.internal.sim.ControllerSpec;
import dev.metahook.internal.sim.HttpHook;
import dev.metahook.internal.sim.Ids;
import dev.metahook.internal.sim.KubernetesVersion;
import dev.metahook.internal.sim.Simulation;
import dev.metahook.testing.StoredObjects;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * The local rig: etcd, kube-apiserver of one Kubernetes version and the garbage collector from
 * {@code src/e2e/control-plane} on 127.0.0.1, {@code target/metahook.jar} as a process, and the simulator playing Metacontroller
 * through the API server, one simulation per controller. Workloads become ready when a test says so.
 * Besides metahook's CRDs the API server has Metacontroller's own CRDs, as Metacontroller v4.17.2 installs them
 * (the captured fixture {@code metacontroller-crds-v1-v4.17.2.yaml} of {@code src/test-support}: CompositeController,
 * DecoratorController, ControllerRevision).
 */
final class LocalRig implements Rig {
    private static final String NAMESPACE = "default";
    /** Metacontroller's CRDs as v4.17.2 ships them (manifests/production/metacontroller-crds-v1.yaml of its repository). */
    static final String METACONTROLLER_CRDS =
            "src/test-support/src/main/resources/fixtures/metacontroller/metacontroller-crds-v1-v4.17.2.yaml";
    /** The kinds each controller's simulation reads and writes: its parent, then its children. */
    private static final Map<String, List<String[]>> KINDS = Map.of(
            "webapp", List.of(new String[] {"metahook.dev/v1", "WebApp"}, new String[] {"apps/v1", "Deployment"},
                    new String[] {"v1", "Service"}),
            "database", List.of(new String[] {"metahook.dev/v1", "Database"}, new String[] {"v1", "Secret"},
                    new String[] {"v1", "Service"}, new String[] {"apps/v1", "StatefulSet"}, new String[] {"batch/v1", "Job"}));

    private final Path dir;
    private final KubernetesClient client;
    private final Process hookService;
    private final int port;
    private final ApiServerCluster cluster;
    private final Map<String, Simulation> simulations = new HashMap<>();
    private final List<HttpHook> hooks = new ArrayList<>();
    private final StatusHistory history = new StatusHistory();
    private final Map<String, List<String>> updates = new HashMap<>();

    private LocalRig(Path dir, KubernetesClient client, Process hookService, int port) {
        this.dir = dir;
        this.client = client;
        this.hookService = hookService;
        this.port = port;
        Map<String, String[]> every = new TreeMap<>();
        KINDS.values().forEach(kinds -> kinds.forEach(kind -> every.put(kind[0] + " " + kind[1], kind)));
        this.cluster = new ApiServerCluster(client, NAMESPACE, List.copyOf(every.values()));
    }

    /** The rig with the API server of this minor (built first if needed). */
    static LocalRig start(KubernetesVersion version) throws Exception {
        Path dir = Files.createTempDirectory("metahook-e2e-" + version);
        Commands commands = new Commands(dir.resolve("kubeconfig"));
        commands.run(Duration.ofMinutes(20), "bash", "src/e2e/control-plane", "start", dir.toString(), version.toString());
        commands.run(Duration.ofMinutes(2), "kubectl", "apply", "-f", "metacontroller/crd-webapps.yaml", "-f", "metacontroller/crd-databases.yaml",
                "-f", METACONTROLLER_CRDS);
        commands.run(Duration.ofMinutes(2), "kubectl", "wait", "--for=condition=established", "--timeout=60s",
                "crd/webapps.metahook.dev", "crd/databases.metahook.dev", "crd/controllerrevisions.metacontroller.k8s.io",
                "crd/compositecontrollers.metacontroller.k8s.io", "crd/decoratorcontrollers.metacontroller.k8s.io");
        commands.run(Duration.ofMinutes(2), "bash", "src/e2e/control-plane", "controllers", dir.toString());
        KubernetesClient client = new KubernetesClientBuilder()
                .withConfig(Config.fromKubeconfig(Files.readString(dir.resolve("kubeconfig")))).build();
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        ProcessBuilder builder = new ProcessBuilder("java", "-jar", "target/metahook.jar").redirectErrorStream(true)
                .redirectOutput(dir.resolve("metahook.log").toFile());
        builder.environment().put("PORT", Integer.toString(port));
        builder.environment().put("HOST", "127.0.0.1");
        builder.environment().put("METAHOOK_DATABASE_KEY", "an end-to-end test key");
        Process hookService = builder.start();
        URI ready = URI.create("http://127.0.0.1:" + port + "/readyz");
        Commands.waitFor(Duration.ofSeconds(60), "the hook service to be ready", () -> {
            try {
                return ready.toURL().openConnection().getInputStream().readAllBytes().length > 0;
            } catch (IOException notYet) {
                return false;
            }
        });
        return new LocalRig(dir, client, hookService, port);
    }

    @Override
    public ApiServerCluster cluster() {
        return cluster;
    }

    @Override
    public Commands commands() {
        return new Commands(dir.resolve("kubeconfig"));
    }

    @Override
    public boolean local() {
        return true;
    }

    @Override
    public String namespace() {
        return NAMESPACE;
    }

    @Override
    public ObjectNode example(String file) {
        return StoredObjects.manifest("examples/" + file);
    }

    @Override
    public void await(String controller, ChildId parent, boolean workloadsReady, String what, Check check) throws Exception {
        Simulation simulation = simulation(controller);
        if (simulation.store().get(parent).isPresent()) {
            Simulation.Run run = simulation.converge(parent, 20, workloadsReady);
            run.passes().stream().filter(pass -> pass.call() != null && pass.call().response() != null)
                    .forEach(pass -> history.record(parent, pass.call().response().path("status")));
            run.passes().stream().filter(pass -> pass.call() != null).forEach(pass -> pass.updates().forEach(update ->
                    updates.computeIfAbsent(parent + " " + pass.call().hook(), key -> new ArrayList<>())
                            .add(Ids.text(update.child()) + (update.needless() ? " (not asked for, at " + update.change() + ")" : ""))));
            assertEquals(true, run.converged(), what + ": the answers kept changing what is written (a hot loop); the last passes: "
                    + describe(run.passes().subList(Math.max(0, run.passes().size() - 3), run.passes().size())));
        }
        Commands.waitFor(Duration.ofSeconds(60), what, check);
    }

    /** What each pass did: how it ended, the updates it sent, what the parent's status became. */
    private static String describe(List<CompositeSimulator.Pass> passes) {
        StringBuilder out = new StringBuilder();
        for (CompositeSimulator.Pass pass : passes) {
            out.append("\n  ").append(pass.outcome()).append(pass.call() == null ? "" : " " + pass.call().hook())
                    .append(pass.error() == null ? "" : " (" + pass.error() + ")").append(", updates ").append(pass.updates())
                    .append(pass.call() == null || pass.call().response() == null ? "" : ", status " + pass.call().response().path("status"));
        }
        return out.toString();
    }

    @Override
    public Optional<List<String>> childUpdates(ChildId parent, String hook) {
        return Optional.of(List.copyOf(updates.getOrDefault(parent + " " + hook, List.of())));
    }

    @Override
    public List<String> seen(ChildId parent, String pointer) {
        return history.seen(parent, pointer);
    }

    private Simulation simulation(String controller) {
        return simulations.computeIfAbsent(controller, name -> {
            ControllerSpec spec = ControllerSpec.read(StoredObjects.manifest("metacontroller/" + name + "-controller.yaml"));
            HttpHook calls = HttpHook.of(spec, URI.create("http://127.0.0.1:" + port));
            hooks.add(calls);
            return new Simulation(spec, calls,
                    new ApiServerCluster(client, NAMESPACE, KINDS.get(name)));
        });
    }

    @Override
    public void close() throws Exception {
        // the simulations' connections end first, so that the service's drain has none kept alive to wait for
        hooks.forEach(HttpHook::close);
        hookService.destroy();
        hookService.waitFor(30, TimeUnit.SECONDS);
        client.close();
        new Commands(dir.resolve("kubeconfig")).run(Duration.ofMinutes(1), "bash", "src/e2e/control-plane", "stop", dir.toString());
    }
}
