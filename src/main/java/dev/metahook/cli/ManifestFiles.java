package dev.metahook.cli;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.metahook.wire.Json;
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
                for (JsonNode object : document.path("kind").asText().endsWith("List") ? document.path("items") : List.of(document)) {
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
