package dev.metahook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.metahook.api.Controllers;
import dev.metahook.api.Hook;
import dev.metahook.controllers.database.Database;
import dev.metahook.controllers.webapp.WebApp;
import dev.metahook.internal.engine.HookAnswer;
import dev.metahook.internal.engine.HookEngine;
import dev.metahook.testing.Kustomize;
import dev.metahook.testing.TestServer;
import dev.metahook.internal.wire.GroupKey;
import dev.metahook.internal.wire.Json;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The manifests users apply agree with what the hook service serves. */
class ManifestsTest {
    private static final YAMLMapper YAML = new YAMLMapper();
    private static final Controllers SERVED = BuiltInControllers.all("a key for the manifests test".getBytes());
    private static final String HOOK_BASE = "http://metahook.metahook-system";

    /** The update strategy of each child resource, as docs/reference-controllers.md fixes them. */
    private static final Map<String, Map<String, String>> STRATEGIES = Map.of(
            "webapp", Map.of("apps/v1 deployments", "InPlace", "v1 services", "InPlace"),
            "database", Map.of("v1 secrets", "OnDelete", "v1 services", "InPlace", "apps/v1 statefulsets", "InPlace",
                    "batch/v1 jobs", "InPlace"));

    @Test
    void everyManifestParses() throws IOException {
        List<JsonNode> all = new ArrayList<>(documents("metacontroller"));
        all.addAll(documents("examples"));
        assertTrue(all.size() >= 12, "found " + all.size());
        for (JsonNode document : all) {
            assertTrue(document.path("apiVersion").isTextual() && document.path("kind").isTextual(), document.toString());
            assertTrue(document.at("/metadata/name").isTextual(), document.toString());
        }
        Json.convert(only("metacontroller", "Deployment"), Deployment.class);
        Json.convert(only("metacontroller", "Service"), Service.class);
    }

    @Test
    void compositeControllersPointAtTheHooksTheServiceServes() throws IOException {
        for (JsonNode controller : ofKind("metacontroller", "CompositeController")) {
            String name = controller.at("/metadata/name").asText().replace("-controller", "");
            Set<String> declared = new TreeSet<>();
            controller.at("/spec/hooks").properties().forEach(hook -> {
                declared.add(hook.getKey());
                assertEquals(HOOK_BASE + "/" + name + "/" + hook.getKey(), hook.getValue().at("/webhook/url").asText());
            });
            Set<String> served = SERVED.hooks(name).stream().map(Hook::segment).collect(Collectors.toCollection(TreeSet::new));
            assertEquals(served, declared, name);
            assertTrue(controller.at("/spec/generateSelector").asBoolean(), name);
        }
        assertEquals(SERVED.names(), Set.of("webapp", "database"));
    }

    @Test
    void childResourcesAndUpdateStrategiesMatchTheControllers() throws IOException {
        for (JsonNode controller : ofKind("metacontroller", "CompositeController")) {
            String name = controller.at("/metadata/name").asText().replace("-controller", "");
            Map<String, String> declared = new TreeMap<>();
            controller.at("/spec/childResources").forEach(child -> declared.put(child.path("apiVersion").asText() + " "
                    + child.path("resource").asText(), child.at("/updateStrategy/method").asText("OnDelete")));
            assertEquals(new TreeMap<>(STRATEGIES.get(name)), declared, name);
        }
    }

    @Test
    void everyChildTheExamplesProduceIsDeclared() throws IOException {
        HookEngine engine = new HookEngine(SERVED, TestServer.CLOCK);
        try (Stream<Path> files = Files.list(Path.of("examples/requests"))) {
            for (Path file : files.sorted().toList()) {
                String name = file.getFileName().toString();
                String controller = name.substring(0, name.indexOf('-'));
                String hook = name.contains("finalize") ? "finalize" : "sync";
                HookAnswer answer = engine.handle(controller, hook, Files.readAllBytes(file));
                assertEquals(200, answer.status(), name + ": " + new String(answer.body(), StandardCharsets.UTF_8));
                JsonNode manifest = ofKind("metacontroller", "CompositeController").stream()
                        .filter(c -> c.at("/metadata/name").asText().equals(controller + "-controller")).findFirst().orElseThrow();
                Set<String> declared = new TreeSet<>();
                manifest.at("/spec/childResources").forEach(child -> declared.add(child.path("apiVersion").asText() + " "
                        + child.path("resource").asText()));
                for (JsonNode child : Json.parse(answer.body()).get("children")) {
                    String key = child.path("apiVersion").asText() + " " + GroupKey.guessResource(child.path("kind").asText());
                    assertTrue(STRATEGIES.get(controller).containsKey(key), name + " produces " + key + ", which the reference doc does not list");
                    assertTrue(declared.contains(key), name + " produces " + key + ", which " + controller + "-controller.yaml does not declare");
                }
            }
        }
    }

    @Test
    void customResourceDefinitionsMatchTheParentTypes() throws IOException {
        for (Class<? extends HasMetadata> type : List.of(WebApp.class, Database.class)) {
            String plural = HasMetadata.getPlural(type);
            JsonNode crd = ofKind("metacontroller", "CustomResourceDefinition").stream()
                    .filter(c -> c.at("/metadata/name").asText().equals(plural + ".metahook.dev")).findFirst().orElseThrow();
            assertEquals(HasMetadata.getKind(type), crd.at("/spec/names/kind").asText());
            assertEquals("Namespaced", crd.at("/spec/scope").asText());
            JsonNode version = crd.at("/spec/versions/0");
            assertEquals(HasMetadata.getApiVersion(type), crd.at("/spec/group").asText() + "/" + version.path("name").asText());
            assertTrue(version.at("/subresources/status").isObject(), "status subresource");
            assertEquals("integer", version.at("/schema/openAPIV3Schema/properties/status/properties/observedGeneration/type").asText());
            List<String> columns = new ArrayList<>();
            version.path("additionalPrinterColumns").forEach(c -> columns.add(c.path("name").asText()));
            assertTrue(columns.containsAll(type == Database.class ? List.of("Phase", "Ready", "Age") : List.of("Ready", "Age")), columns.toString());
        }
    }

    @Test
    void theHookServiceReachesTheContainerPortTheServerListensOn() throws IOException {
        Deployment deployment = Json.convert(only("metacontroller", "Deployment"), Deployment.class);
        Service service = Json.convert(only("metacontroller", "Service"), Service.class);
        var container = deployment.getSpec().getTemplate().getSpec().getContainers().get(0);
        assertEquals(80, service.getSpec().getPorts().get(0).getPort());
        assertEquals("http", service.getSpec().getPorts().get(0).getTargetPort().getStrVal());
        assertEquals(8080, container.getPorts().get(0).getContainerPort());
        assertEquals("8080", container.getEnv().stream().filter(e -> e.getName().equals("PORT")).findFirst().orElseThrow().getValue());
        assertEquals("/readyz", container.getReadinessProbe().getHttpGet().getPath());
        assertEquals("/healthz", container.getLivenessProbe().getHttpGet().getPath());
        assertEquals(null, deployment.getSpec().getReplicas(), "the HorizontalPodAutoscaler owns the count");
        assertEquals(false, deployment.getSpec().getTemplate().getSpec().getAutomountServiceAccountToken());
        assertEquals(true, container.getSecurityContext().getReadOnlyRootFilesystem());
        assertEquals(true, deployment.getSpec().getTemplate().getSpec().getSecurityContext().getRunAsNonRoot());
    }

    @Test
    void probesUseThePlainManagementPortAndEachCallerIsAdmittedToItsPort() throws IOException {
        Deployment deployment = Json.convert(only("metacontroller", "Deployment"), Deployment.class);
        var container = deployment.getSpec().getTemplate().getSpec().getContainers().get(0);
        String managementPort = container.getEnv().stream().filter(e -> e.getName().equals("MANAGEMENT_PORT")).findFirst().orElseThrow().getValue();
        int management = container.getPorts().stream().filter(p -> p.getName().equals("management")).findFirst().orElseThrow().getContainerPort();
        assertEquals(Integer.parseInt(managementPort), management);
        assertEquals("management", container.getReadinessProbe().getHttpGet().getPort().getStrVal());
        assertEquals("management", container.getLivenessProbe().getHttpGet().getPort().getStrVal());
        assertEquals(null, container.getReadinessProbe().getHttpGet().getScheme(), "plain HTTP, whatever TLS the hook port has");
        Map<String, Integer> admitted = new TreeMap<>();
        for (JsonNode rule : only("metacontroller", "NetworkPolicy").at("/spec/ingress")) {
            for (JsonNode from : rule.path("from")) {
                for (JsonNode port : rule.path("ports")) {
                    admitted.put(from.at("/namespaceSelector/matchLabels/kubernetes.io~1metadata.name").asText(), port.path("port").asInt());
                }
            }
        }
        assertEquals(Map.of("metacontroller", 8080, "monitoring", management), admitted, "hooks from Metacontroller, metrics from monitoring");
    }

    @Test
    void kustomizeRendersEverything() throws Exception {
        String output = Kustomize.build(Path.of("metacontroller/"));
        List<String> kinds = new ArrayList<>();
        for (JsonNode document : YAML.readValues(new YAMLFactory().createParser(output), JsonNode.class).readAll()) {
            kinds.add(document.path("kind").asText());
        }
        assertEquals(List.of("Namespace", "ServiceAccount", "Service", "Deployment", "PodDisruptionBudget",
                "HorizontalPodAutoscaler", "CompositeController", "CompositeController", "CustomResourceDefinition",
                "CustomResourceDefinition", "NetworkPolicy").stream().sorted().toList(), kinds.stream().sorted().toList());
    }

    /** At least two replicas, kept apart by node and zone, scaled with CPU; a drain keeps one serving. */
    @Test
    void theReplicasAreSpreadAutoscaledAndProtectedFromDrains() throws IOException {
        JsonNode deployment = only("metacontroller", "Deployment");
        JsonNode podLabels = deployment.at("/spec/template/metadata/labels");
        List<String> keys = new ArrayList<>();
        for (JsonNode constraint : deployment.at("/spec/template/spec/topologySpreadConstraints")) {
            keys.add(constraint.path("topologyKey").asText());
            assertEquals(1, constraint.path("maxSkew").asInt());
            assertEquals("ScheduleAnyway", constraint.path("whenUnsatisfiable").asText(), "a single-node cluster still runs every replica");
            assertEquals(deployment.at("/spec/selector/matchLabels"), constraint.at("/labelSelector/matchLabels"));
        }
        assertEquals(List.of("kubernetes.io/hostname", "topology.kubernetes.io/zone"), keys);
        JsonNode autoscaler = only("metacontroller", "HorizontalPodAutoscaler");
        assertEquals("autoscaling/v2", autoscaler.path("apiVersion").asText());
        assertEquals(Json.parse("{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"name\":\"metahook\"}".getBytes()),
                autoscaler.at("/spec/scaleTargetRef"));
        assertEquals(deployment.at("/metadata/namespace"), autoscaler.at("/metadata/namespace"));
        int min = autoscaler.at("/spec/minReplicas").asInt();
        JsonNode budget = only("metacontroller", "PodDisruptionBudget");
        assertTrue(min >= 2 && budget.at("/spec/minAvailable").asInt() < min, "a voluntary disruption leaves a replica serving");
        assertTrue(autoscaler.at("/spec/maxReplicas").asInt() > min);
        assertEquals("cpu", autoscaler.at("/spec/metrics/0/resource/name").asText());
        assertTrue(deployment.at("/spec/template/spec/containers/0/resources/requests/cpu").isTextual(), "utilisation needs a CPU request");
        assertEquals(deployment.at("/spec/selector/matchLabels"), budget.at("/spec/selector/matchLabels"));
        deployment.at("/spec/selector/matchLabels").properties().forEach(label -> assertEquals(label.getValue(), podLabels.get(label.getKey())));
    }

    /** A startup probe on the liveness endpoint gives a cold start a minute before liveness can restart it. */
    @Test
    void aStartupProbeCoversAColdStart() throws IOException {
        JsonNode container = only("metacontroller", "Deployment").at("/spec/template/spec/containers/0");
        JsonNode startup = container.path("startupProbe");
        assertEquals("/healthz", startup.at("/httpGet/path").asText());
        assertEquals("management", startup.at("/httpGet/port").asText());
        assertTrue(startup.path("periodSeconds").asInt() * startup.path("failureThreshold").asInt() >= 60, startup.toString());
        assertTrue(container.at("/livenessProbe/initialDelaySeconds").isMissingNode(), "the startup probe replaces an initial delay");
    }

    /**
     * No Service of metahook-system sets variables in the pods: the Service {@code metahook} itself would set
     * {@code METAHOOK_PORT=tcp://IP:80}, and one named {@code management} {@code MANAGEMENT_PORT}, in every pod.
     */
    @Test
    void thePodGetsNoServiceLinks() throws IOException {
        assertEquals(false, Json.convert(only("metacontroller", "Deployment"), Deployment.class).getSpec().getTemplate().getSpec()
                .getEnableServiceLinks());
    }

    /** The namespace enforces the restricted Pod Security profile, and every container of the Deployment meets it. */
    @Test
    void theNamespaceEnforcesTheRestrictedProfileAndThePodMeetsIt() throws IOException {
        JsonNode labels = only("metacontroller", "Namespace").at("/metadata/labels");
        for (String mode : List.of("enforce", "warn", "audit")) {
            assertEquals("restricted", labels.path("pod-security.kubernetes.io/" + mode).asText(), mode);
            assertTrue(labels.path("pod-security.kubernetes.io/" + mode + "-version").asText().matches("latest|v1\\.\\d+"), mode);
        }
        JsonNode pod = only("metacontroller", "Deployment").at("/spec/template/spec");
        assertEquals(only("metacontroller", "Namespace").at("/metadata/name"), only("metacontroller", "Deployment").at("/metadata/namespace"));
        assertTrue(pod.at("/securityContext/runAsNonRoot").asBoolean());
        assertTrue(pod.at("/securityContext/runAsUser").asInt() > 0);
        for (String host : List.of("hostNetwork", "hostPID", "hostIPC")) {
            assertTrue(!pod.path(host).asBoolean(false), host);
        }
        for (JsonNode volume : pod.path("volumes")) {
            List<String> types = new ArrayList<>();
            volume.fieldNames().forEachRemaining(types::add);
            types.remove("name");
            assertTrue(Set.of("configMap", "csi", "downwardAPI", "emptyDir", "ephemeral", "persistentVolumeClaim", "projected", "secret")
                    .containsAll(types), "volume " + volume);
        }
        List<JsonNode> containers = new ArrayList<>();
        pod.path("initContainers").forEach(containers::add);
        pod.path("containers").forEach(containers::add);
        for (JsonNode container : containers) {
            String name = container.path("name").asText();
            JsonNode security = container.path("securityContext");
            assertEquals(false, security.path("allowPrivilegeEscalation").asBoolean(true), name);
            assertEquals("[\"ALL\"]", security.at("/capabilities/drop").toString(), name);
            assertTrue(security.at("/capabilities/add").isMissingNode(), name);
            assertTrue(!security.path("privileged").asBoolean(false), name);
            assertEquals("RuntimeDefault", security.at("/seccompProfile/type").asText(pod.at("/securityContext/seccompProfile/type").asText()), name);
            assertTrue(security.path("runAsNonRoot").asBoolean(true) && security.path("runAsUser").asInt(1) > 0, name);
            container.path("ports").forEach(port -> assertTrue(port.path("hostPort").isMissingNode(), name));
        }
    }

    /** An overlay of {@code metacontroller/} two levels below the project, with these lines after its resources. */
    private static Path overlay(String directory, String rest) throws IOException {
        Path overlay = Path.of(directory);
        Files.createDirectories(overlay);
        Files.writeString(overlay.resolve("kustomization.yaml"), """
                apiVersion: kustomize.config.k8s.io/v1beta1
                kind: Kustomization
                resources:
                - ../../metacontroller
                """ + rest);
        return overlay;
    }

    /**
     * the overlay of docs/deploy.md: the image set with kustomize {@code images:}, and on a Metacontroller before
     * v4.16 the component that drops {@code endpointConfigs}, the token the service would then never
     * receive, and every namespace but {@code metacontroller} from the NetworkPolicy.
     */
    @Test
    void anOverlaySetsTheImageAndTheComponentRunsWithoutTheToken() throws Exception {
        Path overlay = overlay("target/kustomize-overlay-test", """
                images:
                - name: ghcr.io/metahook/metahook
                  newName: registry.example.com/team/metahook
                  newTag: 0.1.0-test
                """);
        List<JsonNode> withImage = kustomize(overlay);
        JsonNode deployment = ofKind(withImage, "Deployment").get(0);
        assertEquals("registry.example.com/team/metahook:0.1.0-test", deployment.at("/spec/template/spec/containers/0/image").asText());
        assertEquals(kinds(kustomize(Path.of("metacontroller"))), kinds(withImage));
        for (JsonNode controller : ofKind(withImage, "CompositeController")) {
            assertEquals("metahook.metahook-system", controller.at("/spec/endpointConfigs/0/host").asText());
        }

        Files.writeString(overlay.resolve("kustomization.yaml"), Files.readString(overlay.resolve("kustomization.yaml"))
                + "components:\n- ../../metacontroller/components/before-v4.16\n");
        List<JsonNode> older = kustomize(overlay);
        assertEquals(kinds(withImage), kinds(older));
        for (JsonNode controller : ofKind(older, "CompositeController")) {
            assertTrue(controller.at("/spec/endpointConfigs").isMissingNode(), controller.at("/metadata/name").asText());
            assertTrue(controller.at("/spec/hooks/sync/webhook/url").asText().startsWith(HOOK_BASE + "/"));
        }
        JsonNode pod = ofKind(older, "Deployment").get(0).at("/spec/template/spec");
        String rendered = pod.toString();
        assertTrue(!rendered.contains("AUTH_BEARER_TOKEN_FILE") && !rendered.contains("hook-token"), rendered);
        assertTrue(rendered.contains("METAHOOK_DATABASE_KEY_FILE") && rendered.contains("metahook-database-key"), "the rest of the pod is kept");
        assertEquals("registry.example.com/team/metahook:0.1.0-test", pod.at("/containers/0/image").asText());
        JsonNode from = ofKind(older, "NetworkPolicy").get(0).at("/spec/ingress/0/from");
        assertEquals(1, from.size(), from.toString());
        assertEquals("metacontroller", from.at("/0/namespaceSelector/matchLabels/kubernetes.io~1metadata.name").asText());
    }

    /**
     * With the TLS component the hook port speaks HTTPS only, and kubelet probes speak plain HTTP: so
     * every probe (startup, readiness, liveness) must go to the management port, or the pod never starts.
     * The hooks are then called over https with the CA of the certificate's Secret.
     */
    @Test
    void withTlsEveryProbeGoesToThePlainManagementPortAndTheHooksToHttps() throws Exception {
        Path overlay = overlay("target/kustomize-tls-test", """
                components:
                - ../../metacontroller/components/tls
                """);
        List<JsonNode> rendered = kustomize(overlay);
        assertEquals(kinds(kustomize(Path.of("metacontroller"))), kinds(rendered));
        Deployment deployment = Json.convert(ofKind(rendered, "Deployment").get(0), Deployment.class);
        var container = deployment.getSpec().getTemplate().getSpec().getContainers().get(0);
        Map<String, String> env = new TreeMap<>();
        container.getEnv().forEach(e -> env.put(e.getName(), e.getValue()));
        assertEquals("/etc/metahook/tls/tls.crt", env.get("TLS_CERT_FILE"));
        assertEquals("/etc/metahook/tls/tls.key", env.get("TLS_KEY_FILE"));
        assertTrue(container.getVolumeMounts().stream().anyMatch(m -> m.getMountPath().equals("/etc/metahook/tls")), "the Secret is mounted");
        Map<String, Integer> ports = new TreeMap<>();
        container.getPorts().forEach(p -> ports.put(p.getName(), p.getContainerPort()));
        assertEquals(Integer.parseInt(env.get("PORT")), ports.get("http"), "the hook port, now HTTPS");
        var probes = Map.of("startup", container.getStartupProbe(), "readiness", container.getReadinessProbe(),
                "liveness", container.getLivenessProbe());
        for (var probe : probes.entrySet()) {
            var get = probe.getValue().getHttpGet();
            String port = get.getPort().getStrVal() != null ? get.getPort().getStrVal() : null;
            int number = port != null ? ports.get(port) : get.getPort().getIntVal();
            assertEquals(Integer.parseInt(env.get("MANAGEMENT_PORT")), number, probe.getKey() + " probe on the management port");
            assertTrue(get.getScheme() == null || get.getScheme().equals("HTTP"), probe.getKey() + " probe in plain HTTP");
            assertEquals(probe.getKey().equals("readiness") ? "/readyz" : "/healthz", get.getPath(), probe.getKey());
        }
        Service service = Json.convert(ofKind(rendered, "Service").get(0), Service.class);
        assertEquals(443, service.getSpec().getPorts().get(0).getPort());
        assertEquals("http", service.getSpec().getPorts().get(0).getTargetPort().getStrVal());
        for (JsonNode controller : ofKind(rendered, "CompositeController")) {
            String name = controller.at("/metadata/name").asText();
            controller.at("/spec/hooks").properties().iterator().forEachRemaining(hook -> assertTrue(
                    hook.getValue().at("/webhook/url").asText().startsWith("https://metahook.metahook-system/"), name + " " + hook.getKey()));
            assertEquals("metahook-tls", controller.at("/spec/endpointConfigs/0/caBundle/secretRef/name").asText(), name);
            assertEquals("Bearer", controller.at("/spec/endpointConfigs/0/authorization/type").asText(), name + " keeps the token");
        }
    }

    private static List<JsonNode> kustomize(Path dir) throws Exception {
        String output = Kustomize.build(dir);
        List<JsonNode> documents = new ArrayList<>();
        for (JsonNode document : YAML.readValues(new YAMLFactory().createParser(output), JsonNode.class).readAll()) {
            documents.add(Json.parse(Json.mapper().writeValueAsBytes(document)));
        }
        return documents;
    }

    private static List<JsonNode> ofKind(List<JsonNode> documents, String kind) {
        return documents.stream().filter(d -> kind.equals(d.path("kind").asText())).toList();
    }

    private static List<String> kinds(List<JsonNode> documents) {
        return documents.stream().map(d -> d.path("kind").asText()).sorted().toList();
    }


    private static JsonNode only(String dir, String kind) throws IOException {
        List<JsonNode> found = ofKind(dir, kind);
        assertEquals(1, found.size(), kind);
        return found.get(0);
    }

    private static List<JsonNode> ofKind(String dir, String kind) throws IOException {
        return documents(dir).stream().filter(d -> kind.equals(d.path("kind").asText())).toList();
    }

    private static List<JsonNode> documents(String dir) throws IOException {
        List<JsonNode> documents = new ArrayList<>();
        try (Stream<Path> files = Files.walk(Path.of(dir))) {
            // the chart's templates are Helm templates, not YAML: ChartTest renders them
            for (Path file : files.filter(f -> f.toString().endsWith(".yaml") && !f.startsWith(Path.of(dir, "chart"))).sorted().toList()) {
                for (JsonNode document : YAML.readValues(new YAMLFactory().createParser(file.toFile()), JsonNode.class).readAll()) {
                    if (document != null && !document.isNull() && !file.endsWith("kustomization.yaml")) {
                        documents.add(Json.parse(Json.mapper().writeValueAsBytes(document)));
                    }
                }
            }
        }
        return documents;
    }

}
