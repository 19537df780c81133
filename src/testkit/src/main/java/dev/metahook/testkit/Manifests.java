package dev.metahook.testkit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.metahook.internal.wire.Json;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.model.annotation.Version;
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

    /**
     * The single object of a YAML file, as its type. A type with fabric8's {@code @Version} (every
     * fabric8 model, every {@code CustomResource}) takes only an object of its own {@code apiVersion}
     * and {@code kind}; any other is an error naming the file, the document and what it holds.
     */
    public static <T> T read(Path file, Class<T> type) {
        List<Document> documents = documents(file);
        if (documents.size() != 1) {
            throw new IllegalArgumentException(file + ": holds " + documents.size() + " objects, expected one");
        }
        return convert(documents.get(0), type);
    }

    /**
     * Every object of a YAML file (documents and {@code List} items), as this type. With a type that
     * has fabric8's {@code @Version}, each must be of its {@code apiVersion} and {@code kind} (an error
     * names the file, the document and what it holds); a file of several kinds is read as
     * {@code GenericKubernetesResource} (or {@code HasMetadata}, {@code ObjectNode}), which takes any.
     */
    public static <T> List<T> readAll(Path file, Class<T> type) {
        List<T> all = new ArrayList<>();
        for (Document document : documents(file)) {
            all.add(convert(document, type));
        }
        return all;
    }

    /** One object from YAML text, as its type (of its {@code apiVersion} and {@code kind}, as {@link #read}). */
    public static <T> T parse(String yaml, Class<T> type) {
        try {
            return convert(new Document((ObjectNode) YAML.readTree(yaml), "YAML text"), type);
        } catch (IOException | ClassCastException e) {
            throw new IllegalArgumentException("YAML text is not one object: " + e.getMessage(), e);
        }
    }

    static List<ObjectNode> trees(Path file) {
        return documents(file).stream().map(Document::object).toList();
    }

    /** An object of a file and where it is: the document's index (from 0), and the item's in a {@code List}. */
    private record Document(ObjectNode object, String where) {
    }

    private static List<Document> documents(Path file) {
        List<Document> objects = new ArrayList<>();
        try (var parser = new YAMLFactory().createParser(Files.readAllBytes(file))) {
            int index = 0;
            for (JsonNode document : YAML.readValues(parser, JsonNode.class).readAll()) {
                String where = file + ": document " + index++;
                if (isList(document)) {
                    int item = 0;
                    for (JsonNode object : document.path("items")) {
                        objects.add(new Document((ObjectNode) object, where + ", item " + item++));
                    }
                } else if (document instanceof ObjectNode object) {
                    objects.add(new Document(object, where));
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

    private static <T> T convert(Document document, Class<T> type) {
        requireKind(document, type);
        try {
            return Json.convert(document.object(), type);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(document.where() + ": cannot be read as " + type.getSimpleName() + ": " + e.getOriginalMessage(), e);
        }
    }

    /** A type that names its apiVersion and kind ({@code @Version}) takes only objects of them. */
    private static void requireKind(Document document, Class<?> type) {
        if (!HasMetadata.class.isAssignableFrom(type) || type.getAnnotation(Version.class) == null) {
            return;
        }
        String apiVersion = HasMetadata.getApiVersion(type);
        String kind = HasMetadata.getKind(type);
        String heldVersion = document.object().path("apiVersion").asText();
        String heldKind = document.object().path("kind").asText();
        if (!apiVersion.equals(heldVersion) || !kind.equals(heldKind)) {
            String name = document.object().at("/metadata/name").asText();
            throw new IllegalArgumentException(document.where() + ": holds " + (heldKind.isEmpty() ? "no kind" : heldKind)
                    + (heldVersion.isEmpty() ? " (no apiVersion)" : " " + heldVersion)
                    + (name.isEmpty() ? "" : " " + name)
                    + ", not a " + type.getSimpleName() + " (" + kind + " " + apiVersion + ")");
        }
    }
}
