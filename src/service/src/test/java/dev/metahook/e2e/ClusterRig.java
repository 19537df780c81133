package dev.metahook.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.metahook.api.ChildId;
import dev.metahook.testing.StoredObjects;
import dev.metahook.internal.wire.Json;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * A cluster with the real Metacontroller (v4.16 or newer, in namespace {@code metacontroller}):
 * metahook is installed there from {@code metacontroller/} (image {@code METAHOOK_E2E_IMAGE} if set),
 * the examples run in a fresh namespace with real workloads (the WebApp's image becomes
 * {@code METAHOOK_E2E_APP_IMAGE}, an image that listens on 8080), and the tests wait for what
 * Metacontroller, the controllers and the kubelet do. The namespace goes afterwards; metahook stays.
 */
final class ClusterRig implements Rig {
    private static final String SYSTEM = "metahook-system";
    private static final YAMLMapper YAML = new YAMLMapper();

    private final Commands commands;
    private final KubernetesClient client;
    private final String namespace;
    private final ApiServerCluster cluster;
    private final Duration timeout;
    private final StatusHistory history = new StatusHistory();
    private final List<Watch> watches = new ArrayList<>();

    private ClusterRig(Commands commands, KubernetesClient client, String namespace, Duration timeout) {
        this.commands = commands;
        this.client = client;
        this.namespace = namespace;
        this.timeout = timeout;
        this.cluster = new ApiServerCluster(client, namespace, List.of(new String[] {"metahook.dev/v1", "WebApp"},
                new String[] {"metahook.dev/v1", "Database"}, new String[] {"apps/v1", "Deployment"}, new String[] {"v1", "Service"},
                new String[] {"v1", "Secret"}, new String[] {"apps/v1", "StatefulSet"}, new String[] {"batch/v1", "Job"}));
    }

    static ClusterRig start(Path kubeconfig) throws Exception {
        Commands commands = new Commands(kubeconfig);
        if (commands.exitCode(Duration.ofMinutes(1), "kubectl", "get", "crd", "compositecontrollers.metacontroller.k8s.io") != 0) {
            throw new IllegalStateException("no Metacontroller on the cluster of " + kubeconfig + ": install it first (v4.16 or newer)");
        }
        KubernetesClient client = new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(Files.readString(kubeconfig))).build();
        install(commands, client);
        String namespace = "metahook-e2e-" + HexFormat.of().formatHex(new SecureRandom().generateSeed(3));
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build()).create();
        String seconds = System.getenv().getOrDefault("METAHOOK_E2E_TIMEOUT_SECONDS", "600");
        ClusterRig rig = new ClusterRig(commands, client, namespace, Duration.ofSeconds(Long.parseLong(seconds)));
        rig.watch("WebApp");
        rig.watch("Database");
        return rig;
    }

    /** metahook from {@code metacontroller/}, as the steps of docs/deploy.md do it, with Secrets made only if missing. */
    private static void install(Commands commands, KubernetesClient client) throws Exception {
        if (client.namespaces().withName(SYSTEM).get() == null) {
            client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(SYSTEM).endMetadata().build()).create();
        }
        secretIfMissing(client, "metahook-hook-token", "token");
        secretIfMissing(client, "metahook-database-key", "key");
        StringBuilder manifests = new StringBuilder();
        String image = System.getenv("METAHOOK_E2E_IMAGE");
        for (JsonNode document : YAML.readValues(YAML.createParser(commands.output(Duration.ofMinutes(1), "kubectl", "kustomize",
                "metacontroller/")), JsonNode.class).readAll()) {
            if (image != null && !image.isBlank() && document.path("kind").asText().equals("Deployment")) {
                ((ObjectNode) document.at("/spec/template/spec/containers/0")).put("image", image);
            }
            manifests.append("---\n").append(YAML.writeValueAsString(document).replaceFirst("^---\n", ""));
        }
        Path file = Files.createTempFile("metahook-manifests", ".yaml");
        Files.writeString(file, manifests);
        commands.run(Duration.ofMinutes(2), "kubectl", "apply", "-f", file.toString());
        commands.run(Duration.ofMinutes(2), "kubectl", "wait", "--for=condition=established", "--timeout=60s",
                "crd/webapps.metahook.dev", "crd/databases.metahook.dev");
        commands.run(Duration.ofMinutes(6), "kubectl", "-n", SYSTEM, "rollout", "status", "deployment/metahook", "--timeout=300s");
    }

    private static void secretIfMissing(KubernetesClient client, String name, String key) {
        if (client.secrets().inNamespace(SYSTEM).withName(name).get() != null) {
            return;
        }
        byte[] random = new SecureRandom().generateSeed(32);
        client.secrets().inNamespace(SYSTEM).resource(new SecretBuilder().withNewMetadata().withName(name).endMetadata()
                .addToStringData(key, Base64.getEncoder().encodeToString(random)).build()).create();
    }

    private void watch(String kind) {
        watches.add(client.genericKubernetesResources("metahook.dev/v1", kind).inNamespace(namespace).watch(new Watcher<>() {
            @Override
            public void eventReceived(Action action, GenericKubernetesResource resource) {
                history.record((ObjectNode) Json.tree(resource));
            }

            @Override
            public void onClose(WatcherException cause) {
            }
        }));
    }

    @Override
    public ApiServerCluster cluster() {
        return cluster;
    }

    @Override
    public Commands commands() {
        return commands;
    }

    @Override
    public String namespace() {
        return namespace;
    }

    @Override
    public ObjectNode example(String file) {
        ObjectNode manifest = StoredObjects.manifest("examples/" + file);
        manifest.withObjectProperty("metadata").put("namespace", namespace);
        if (manifest.path("kind").asText().equals("WebApp")) {
            manifest.withObjectProperty("spec").put("image", System.getenv().getOrDefault("METAHOOK_E2E_APP_IMAGE", "nginxinc/nginx-unprivileged:1.27-alpine"));
        }
        return manifest;
    }

    @Override
    public void await(String controller, ChildId parent, boolean workloadsReady, String what, Check check) throws Exception {
        Commands.waitFor(timeout, what, check);
    }

    @Override
    public Optional<List<String>> childUpdates(ChildId parent, String hook) {
        return Optional.empty();
    }

    @Override
    public List<String> seen(ChildId parent, String pointer) {
        return history.seen(parent, pointer);
    }

    @Override
    public void close() throws Exception {
        watches.forEach(Watch::close);
        commands.exitCode(Duration.ofMinutes(1), "kubectl", "delete", "namespace", namespace, "--wait=false");
        client.close();
    }
}
