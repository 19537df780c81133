package dev.metahook.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.metahook.api.Controllers;
import dev.metahook.api.Controllers.Kind;
import dev.metahook.api.Controllers.Registration;
import dev.metahook.api.Hook;
import dev.metahook.testing.Kustomize;
import dev.metahook.internal.wire.Json;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespaced;
import java.io.IOException;
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

/** The manifests in {@code examples/<name>/} agree with what METAHOOK_EXAMPLES=true serves. */
class ExampleManifestsTest {
    private static final YAMLMapper YAML = new YAMLMapper();
    private static final Controllers SERVED = Examples.addTo(Controllers.builder()).build();
    private static final List<String> DIRECTORIES = List.of("bluegreen", "catset", "configmappropagation", "service-per-pod");

    @Test
    void everyRegistrationPointsAtTheHooksItsControllerServes() throws IOException {
        Map<String, String> registered = new TreeMap<>();
        for (String directory : DIRECTORIES) {
            for (JsonNode controller : controllers(directory)) {
                String url = controller.at("/spec/hooks/sync/webhook/url").asText();
                String name = url.replaceFirst("^http://metahook\\.metahook-system/([^/]+)/sync$", "$1");
                Registration<?> registration = SERVED.get(name).orElseThrow(() -> new AssertionError(directory + ": " + url));
                Set<String> declared = new TreeSet<>();
                controller.at("/spec/hooks").properties().forEach(hook -> {
                    declared.add(hook.getKey());
                    assertEquals("http://metahook.metahook-system/" + name + "/" + hook.getKey(), hook.getValue().at("/webhook/url").asText());
                });
                assertEquals(registration.hooks().stream().map(Hook::segment).collect(Collectors.toCollection(TreeSet::new)), declared, name);
                assertEquals(registration.kind() == Kind.COMPOSITE ? "CompositeController" : "DecoratorController",
                        controller.path("kind").asText(), name);
                assertEquals("Bearer", controller.at("/spec/endpointConfigs/0/authorization/type").asText(), name);
                registered.put(name, directory);
            }
        }
        assertEquals(SERVED.names(), registered.keySet(), "every example served has a registration");
    }

    @Test
    void theCustomResourceDefinitionsDescribeTheParentTypes() throws IOException {
        for (String directory : List.of("bluegreen", "catset", "configmappropagation")) {
            JsonNode controller = documents(directory, "controller.yaml").get(0);
            Registration<?> registration = SERVED.get(directory).orElseThrow();
            Class<? extends HasMetadata> type = registration.type();
            JsonNode crd = documents(directory, "crd.yaml").get(0);
            assertEquals(HasMetadata.getPlural(type) + "." + HasMetadata.getGroup(type), crd.at("/metadata/name").asText());
            assertEquals(HasMetadata.getKind(type), crd.at("/spec/names/kind").asText());
            assertEquals(HasMetadata.getVersion(type), crd.at("/spec/versions/0/name").asText());
            assertEquals(Namespaced.class.isAssignableFrom(type) ? "Namespaced" : "Cluster", crd.at("/spec/scope").asText());
            assertTrue(crd.at("/spec/versions/0/subresources/status").isObject(), directory);
            assertEquals(HasMetadata.getApiVersion(type), controller.at("/spec/parentResource/apiVersion").asText());
            assertEquals(HasMetadata.getPlural(type), controller.at("/spec/parentResource/resource").asText());
        }
    }

    @Test
    void theExampleObjectsReadIntoTheirTypes() throws IOException {
        for (String directory : List.of("bluegreen", "catset", "configmappropagation")) {
            Class<? extends HasMetadata> type = SERVED.get(directory).orElseThrow().type();
            try (Stream<Path> files = Files.list(Path.of("examples", directory))) {
                Path object = files.filter(file -> !Set.of("crd.yaml", "controller.yaml", "kustomization.yaml", "service.yaml")
                        .contains(file.getFileName().toString()) && file.toString().endsWith(".yaml")).findFirst().orElseThrow();
                JsonNode document = documents(directory, object.getFileName().toString()).get(0);
                HasMetadata parent = Json.convert(document, type);
                assertEquals(HasMetadata.getKind(type), parent.getKind());
                assertNotNull(parent.getMetadata().getName());
            }
        }
    }

    @Test
    void kustomizeRendersEachExample() throws Exception {
        for (String directory : DIRECTORIES) {
            String output = Kustomize.build(Path.of("examples", directory));
            List<String> kinds = new ArrayList<>();
            for (JsonNode document : YAML.readValues(new YAMLFactory().createParser(output), JsonNode.class).readAll()) {
                kinds.add(document.path("kind").asText());
            }
            assertTrue(kinds.contains("CompositeController") || kinds.contains("DecoratorController"), directory + ": " + kinds);
        }
    }

    /** The registrations of an example: {@code controller.yaml} and any other {@code *-controller.yaml}. */
    private static List<JsonNode> controllers(String directory) throws IOException {
        List<JsonNode> controllers = new ArrayList<>();
        try (Stream<Path> files = Files.list(Path.of("examples", directory))) {
            for (Path file : files.filter(f -> f.getFileName().toString().endsWith("controller.yaml")).sorted().toList()) {
                controllers.addAll(documents(directory, file.getFileName().toString()));
            }
        }
        return controllers;
    }

    private static List<JsonNode> documents(String directory, String file) throws IOException {
        List<JsonNode> documents = new ArrayList<>();
        Path path = Path.of("examples", directory, file);
        for (JsonNode document : YAML.readValues(new YAMLFactory().createParser(path.toFile()), JsonNode.class).readAll()) {
            documents.add(Json.parse(Json.mapper().writeValueAsBytes(document)));
        }
        return documents;
    }
}
