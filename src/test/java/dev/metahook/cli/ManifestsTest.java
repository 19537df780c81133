package dev.metahook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.metahook.controllers.database.Database;
import dev.metahook.controllers.webapp.WebApp;
import dev.metahook.api.Controllers;
import dev.metahook.api.Hook;
import dev.metahook.engine.HookAnswer;
import dev.metahook.engine.HookEngine;
import dev.metahook.testing.TestServer;
import dev.metahook.wire.Json;
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
import java.util.concurrent.TimeUnit;
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
            controller.at("/spec/hooks").fields().forEachRemaining(hook -> {
                declared.add(hook.getKey());
                assertEquals(HOOK_BASE + "/" + name + "/" + hook.getKey(), hook.getValue().at("/webhook/url").asText());
            });
            Set<String> served = SERVED.hooks(name).stream().map(Hook::path).collect(Collectors.toCollection(TreeSet::new));
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
                    String key = child.path("apiVersion").asText() + " " + dev.metahook.wire.GroupKey.guessResource(child.path("kind").asText());
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
        assertEquals(2, deployment.getSpec().getReplicas());
        assertEquals(false, deployment.getSpec().getTemplate().getSpec().getAutomountServiceAccountToken());
        assertEquals(true, container.getSecurityContext().getReadOnlyRootFilesystem());
        assertEquals(true, deployment.getSpec().getTemplate().getSpec().getSecurityContext().getRunAsNonRoot());
    }

    @Test
    void kubectlKustomizeRendersEverything() throws Exception {
        Process process = new ProcessBuilder("kubectl", "kustomize", "metacontroller/").redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, process.exitValue(), output);
        List<String> kinds = new ArrayList<>();
        for (JsonNode document : YAML.readValues(new YAMLFactory().createParser(output), JsonNode.class).readAll()) {
            kinds.add(document.path("kind").asText());
        }
        assertEquals(List.of("Namespace", "ServiceAccount", "Service", "Deployment", "PodDisruptionBudget",
                "CompositeController", "CompositeController", "CustomResourceDefinition", "CustomResourceDefinition",
                "NetworkPolicy").stream().sorted().toList(), kinds.stream().sorted().toList());
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
            for (Path file : files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
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
