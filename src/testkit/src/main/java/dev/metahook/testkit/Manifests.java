package dev.metahook.testkit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.metahook.internal.wire.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Kubernetes objects from YAML as {@code kubectl} reads it: one document, several, or a {@code List}. */
public final class Manifests {
    private static final YAMLMapper YAML = new YAMLMapper();

    private Manifests() {
    }

    /** The single object of a YAML file, as its type. */
    public static <T> T read(Path file, Class<T> type) {
        List<ObjectNode> objects = trees(file);
        if (objects.size() != 1) {
            throw new IllegalArgumentException(file + ": holds " + objects.size() + " objects, expected one");
        }
        return convert(objects.get(0), type, file.toString());
    }

    /** Every object of a YAML file (documents and {@code List} items) that is of this type's kind. */
    public static <T> List<T> readAll(Path file, Class<T> type) {
        List<T> all = new ArrayList<>();
        for (ObjectNode object : trees(file)) {
            all.add(convert(object, type, file.toString()));
        }
        return all;
    }

    /** One object from YAML text, as its type. */
    public static <T> T parse(String yaml, Class<T> type) {
        try {
            return convert((ObjectNode) YAML.readTree(yaml), type, "YAML text");
        } catch (IOException | ClassCastException e) {
            throw new IllegalArgumentException("YAML text is not one object: " + e.getMessage(), e);
        }
    }

    static List<ObjectNode> trees(Path file) {
        List<ObjectNode> objects = new ArrayList<>();
        try (var parser = new YAMLFactory().createParser(Files.readAllBytes(file))) {
            for (JsonNode document : YAML.readValues(parser, JsonNode.class).readAll()) {
                if (isList(document)) {
                    document.path("items").forEach(item -> objects.add((ObjectNode) item));
                } else if (document instanceof ObjectNode object) {
                    objects.add(object);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(file + ": cannot be read: " + e.getMessage(), e);
        }
        return objects;
    }

    /**
     * A list of objects as kubectl decodes one: an {@code items} list and a kind ending in {@code List}
     * ({@code List}, {@code ConfigMapList}); a custom resource of kind {@code ConfigMapList} with a
     * {@code spec} is one object. (cli.ManifestFiles reads by the same rule.)
     */
    private static boolean isList(JsonNode document) {
        return document.path("kind").asText().endsWith("List") && document.path("items").isArray();
    }

    private static <T> T convert(ObjectNode object, Class<T> type, String where) {
        try {
            return Json.convert(object, type);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(where + ": cannot be read as " + type.getSimpleName() + ": " + e.getOriginalMessage(), e);
        }
    }
}
