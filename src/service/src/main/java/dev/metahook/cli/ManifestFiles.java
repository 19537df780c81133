package dev.metahook.cli;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.metahook.internal.sim.ControllerSpec;
import dev.metahook.internal.wire.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Kubernetes objects from YAML (or JSON) files, each checked for what every object has, with errors
 * that say the file, the line and what was expected.
 */
final class ManifestFiles {
    private static final YAMLMapper YAML = YAMLMapper.builder()
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
            .build();

    private ManifestFiles() {
    }

    /** Exactly one object. */
    static ObjectNode one(String file) {
        List<ObjectNode> objects = all(file);
        if (objects.size() != 1) {
            throw new UsageException(file + ": expected one Kubernetes object, found " + objects.size());
        }
        return objects.get(0);
    }

    /**
     * The related objects of {@code --related} (none when the option is absent): every object in the
     * file, each at most once, as {@code kubectl get -o yaml} lists them.
     */
    static List<ObjectNode> related(String file) {
        if (file == null) {
            return List.of();
        }
        List<ObjectNode> objects = all(file);
        Set<String> seen = new HashSet<>();
        for (ObjectNode object : objects) {
            JsonNode metadata = object.path("metadata");
            String id = object.path("kind").asText() + "." + object.path("apiVersion").asText() + " "
                    + (metadata.hasNonNull("namespace") ? metadata.get("namespace").asText() + "/" : "") + metadata.path("name").asText();
            if (!seen.add(id)) {
                throw new UsageException(file + ": " + id + " appears twice");
            }
        }
        return objects;
    }

    /**
     * The CompositeController or DecoratorController of a file that may hold other objects too (an
     * example's manifest: the CRD, the controller, the hook's Deployment and Service); with several,
     * the one {@code name} names.
     */
    static ControllerSpec controller(String file, String name) {
        List<ObjectNode> objects = Files.isDirectory(Path.of(file)) ? directory(file) : all(file);
        List<ObjectNode> controllers = objects.stream().filter(ManifestFiles::isController).toList();
        List<String> found = controllers.stream().map(ManifestFiles::describe).toList();
        if (name != null) {
            controllers = controllers.stream().filter(object -> name.equals(object.path("metadata").path("name").asText())).toList();
            if (controllers.isEmpty()) {
                throw new UsageException(file + ": holds no CompositeController or DecoratorController named " + name
                        + (found.isEmpty() ? "" : "; it holds " + String.join(", ", found)));
            }
        }
        if (controllers.isEmpty()) {
            throw new UsageException(file + ": holds no CompositeController or DecoratorController of metacontroller.k8s.io"
                    + (objects.isEmpty() ? "" : "; it holds " + String.join(", ", objects.stream().map(ManifestFiles::describe).toList())));
        }
        if (controllers.size() > 1) {
            throw new UsageException(file + ": holds " + controllers.size() + " controllers (" + String.join(", ", found)
                    + "): name one with --controller-name");
        }
        try {
            return ControllerSpec.read(controllers.get(0)).withDefinitions(objects);
        } catch (IllegalArgumentException e) {
            throw new UsageException(file + ": " + describe(controllers.get(0)) + ": " + e.getMessage());
        }
    }

    /**
     * Every object of a directory's YAML files ({@code .yaml}, {@code .yml}; a kustomization's own file left out), the
     * files in name order: a controller with its parent's CRD, as {@code examples/catset/} holds them.
     */
    private static List<ObjectNode> directory(String directory) {
        List<ObjectNode> objects = new ArrayList<>();
        try (var files = Files.list(Path.of(directory))) {
            for (Path file : files.filter(ManifestFiles::isManifest).sorted().toList()) {
                objects.addAll(all(file.toString()));
            }
        } catch (IOException e) {
            throw new UsageException(directory + ": cannot be read: " + e.getMessage());
        }
        return objects;
    }

    private static boolean isManifest(Path file) {
        String name = file.getFileName().toString();
        return Files.isRegularFile(file) && (name.endsWith(".yaml") || name.endsWith(".yml"))
                && !name.equals("kustomization.yaml") && !name.equals("kustomization.yml");
    }

    private static boolean isController(JsonNode object) {
        String kind = object.path("kind").asText();
        return object.path("apiVersion").asText().startsWith("metacontroller.k8s.io/")
                && (kind.equals("CompositeController") || kind.equals("DecoratorController"));
    }

    private static String describe(JsonNode object) {
        return object.path("kind").asText() + " " + object.path("metadata").path("name").asText();
    }

    /**
     * Whether a document is a list of objects, as kubectl decodes one: it has an {@code items} list and
     * a kind ending in {@code List} ({@code List}, {@code ConfigMapList}). A custom resource whose kind
     * ends in {@code List} ({@code ConfigMapList} with a {@code spec}) is one object.
     */
    static boolean isList(JsonNode document) {
        return document.path("kind").asText().endsWith("List") && document.path("items").isArray();
    }

    /** Every object in the file: several documents, or a {@code List} with {@code items}. */
    static List<ObjectNode> all(String file) {
        Path path = Path.of(file);
        List<ObjectNode> objects = new ArrayList<>();
        try (JsonParser parser = new YAMLFactory().createParser(Files.readString(path))) {
            while (parser.nextToken() != null) {
                int line = parser.currentLocation().getLineNr();
                JsonNode document = YAML.readTree(parser);
                if (document == null || document.isNull() || document.isMissingNode()) {
                    continue;
                }
                for (JsonNode object : isList(document) ? document.path("items") : List.of(document)) {
                    objects.add(checked(object, file, line));
                }
            }
        } catch (NoSuchFileException e) {
            throw new UsageException(file + ": no such file");
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            throw new UsageException(file + ":" + (at == null ? "?" : at.getLineNr()) + ": not valid YAML: " + e.getOriginalMessage().lines().findFirst().orElse(""));
        } catch (IOException e) {
            throw new UsageException(file + ": cannot be read: " + e.getMessage());
        }
        return objects;
    }

    private static ObjectNode checked(JsonNode object, String file, int line) {
        if (!object.isObject()) {
            throw new UsageException(file + ":" + line + ": expected a Kubernetes object (a mapping), got " + object.getNodeType().name().toLowerCase());
        }
        for (String field : List.of("apiVersion", "kind")) {
            if (!object.path(field).isTextual()) {
                throw new UsageException(file + ":" + line + ": expected " + field + " (a string) in this object");
            }
        }
        if (!object.path("metadata").path("name").isTextual()) {
            throw new UsageException(file + ":" + line + ": expected metadata.name (a string) in this "
                    + object.path("kind").asText() + " object");
        }
        try {
            return (ObjectNode) Json.parse(Json.mapper().writeValueAsBytes(object));
        } catch (JsonProcessingException e) {
            throw new UsageException(file + ":" + line + ": " + e.getOriginalMessage());
        }
    }

    /** A tree as YAML, for output. */
    static String yaml(JsonNode tree) {
        try {
            return YAML.writeValueAsString(tree);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
