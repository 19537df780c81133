package dev.metahook.wire;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;

/**
 * One object of an object map, as the request carried it. An object read from a request body stays
 * bytes until someone asks for it: a controller that reads two of a thousand children parses two.
 * Its name and namespace come from its key (Metacontroller makes keys from them) until it is parsed.
 */
public final class ObservedObject {
    private final GroupKey group;
    private final String key;
    private final String pointer;
    private final byte[] source;
    private final int offset;
    private final int length;
    private volatile ObjectNode tree;

    private ObservedObject(GroupKey group, String key, String pointer, byte[] source, int offset, int length, ObjectNode tree) {
        this.group = group;
        this.key = key;
        this.pointer = pointer;
        this.source = source;
        this.offset = offset;
        this.length = length;
        this.tree = tree;
    }

    static ObservedObject of(GroupKey group, String key, ObjectNode tree) {
        return new ObservedObject(group, key, null, null, 0, 0, tree);
    }

    static ObservedObject lazy(GroupKey group, String key, String pointer, byte[] source, int offset, int length) {
        return new ObservedObject(group, key, pointer, source, offset, length, null);
    }

    public GroupKey group() {
        return group;
    }

    public String key() {
        return key;
    }

    /** The object's name: from its metadata once parsed, from its key before. */
    public String name() {
        ObjectNode parsed = tree;
        if (parsed != null) {
            return parsed.path("metadata").path("name").asText();
        }
        return keyName();
    }

    /** The name its key gives: Metacontroller makes keys from names, {@code name} or {@code namespace/name}. */
    public String keyName() {
        int slash = key.indexOf('/');
        return slash < 0 ? key : key.substring(slash + 1);
    }

    /**
     * Whether an identity read from the object is the one its place in the request gives: its group's
     * kind and apiVersion, its key's name.
     */
    public boolean fits(String apiVersion, String kind, String name) {
        return group.apiVersion().equals(apiVersion) && group.kind().equals(kind) && name != null && !name.isEmpty()
                && name.equals(keyName());
    }

    /** The object's namespace, or the parent's when its key has none (a v1 key under a namespaced parent). */
    public String namespaceOr(String parentNamespace) {
        ObjectNode parsed = tree;
        String fallback = parentNamespace == null ? "" : parentNamespace;
        if (parsed != null) {
            return parsed.path("metadata").path("namespace").asText(fallback);
        }
        int slash = key.indexOf('/');
        return slash < 0 ? fallback : key.substring(0, slash);
    }

    /** The whole object, parsed and checked on first use. */
    public ObjectNode tree() {
        ObjectNode parsed = tree;
        if (parsed == null) {
            synchronized (this) {
                if (tree == null) {
                    tree = parse();
                }
                parsed = tree;
            }
        }
        return parsed;
    }

    /**
     * The object as a type, read straight from its bytes when it was not parsed yet (one pass instead
     * of bytes to tree to type). Its shape is not checked here: a caller that finds the identity
     * wrong asks {@link #tree()}, which says exactly what is wrong.
     */
    public <T> T read(Class<T> type) throws IOException {
        ObjectNode parsed = tree;
        return parsed != null ? Json.convert(parsed, type) : Json.mapper().readValue(source, offset, length, type);
    }

    /**
     * What identifies an object, and its last-applied annotation (null when it has none or it is not
     * a string); {@code wellFormed} is false when an identity field is there but not a string.
     */
    public record Summary(String apiVersion, String kind, String name, String namespace, String lastApplied, boolean wellFormed) {
    }

    /**
     * The object's identity and last-applied annotation, read from its bytes without building its
     * tree (from the tree when it was built). Nothing is checked here: the caller compares it with
     * the object's place in the request and asks {@link #tree()} when it does not fit.
     */
    public Summary summary() throws IOException {
        ObjectNode parsed = tree;
        if (parsed != null) {
            JsonNode metadata = parsed.path("metadata");
            JsonNode annotation = metadata.path("annotations").path(LastAppliedConfiguration.ANNOTATION);
            return new Summary(parsed.path("apiVersion").textValue(), parsed.path("kind").textValue(), metadata.path("name").textValue(),
                    metadata.path("namespace").textValue(), annotation.textValue(), true);
        }
        String apiVersion = null;
        String kind = null;
        String[] metadata = {null, null, null, null};
        try (JsonParser parser = Json.mapper().createParser(source, offset, length)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return new Summary(null, null, null, null, null, false);
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                JsonToken value = parser.nextToken();
                switch (field) {
                    case "apiVersion" -> apiVersion = value == JsonToken.VALUE_STRING ? parser.getText() : null;
                    case "kind" -> kind = value == JsonToken.VALUE_STRING ? parser.getText() : null;
                    case "metadata" -> readMetadata(parser, metadata);
                    default -> parser.skipChildren();
                }
            }
        }
        return new Summary(apiVersion, kind, metadata[0], metadata[1], metadata[2], metadata[3] == null);
    }

    /** Name, namespace and last-applied annotation of the metadata object the parser stands on; a fourth slot marks a misfit. */
    private static void readMetadata(JsonParser parser, String[] out) throws IOException {
        if (parser.currentToken() != JsonToken.START_OBJECT) {
            out[3] = "metadata is not an object";
            parser.skipChildren();
            return;
        }
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String field = parser.currentName();
            JsonToken value = parser.nextToken();
            if (field.equals("annotations") && value == JsonToken.START_OBJECT) {
                while (parser.nextToken() == JsonToken.FIELD_NAME) {
                    boolean wanted = parser.currentName().equals(LastAppliedConfiguration.ANNOTATION);
                    JsonToken annotation = parser.nextToken();
                    out[2] = wanted ? (annotation == JsonToken.VALUE_STRING ? parser.getText() : null) : out[2];
                    parser.skipChildren();
                }
            } else if (field.equals("name") || field.equals("namespace")) {
                if (value == JsonToken.VALUE_STRING) {
                    out[field.equals("name") ? 0 : 1] = parser.getText();
                } else if (value != JsonToken.VALUE_NULL || field.equals("name")) {
                    out[3] = field + " is not a string";
                }
                parser.skipChildren();
            } else {
                parser.skipChildren();
            }
        }
    }

    private ObjectNode parse() {
        JsonNode node;
        try {
            node = Json.mapper().readTree(source, offset, length);
        } catch (IOException e) {
            throw new MalformedRequestException(pointer, pointer + ": not valid JSON: " + e.getMessage());
        }
        ObjectNode object = Shapes.kubernetesObject(node, pointer);
        ObjectMap.checkGroup(object, group, pointer);
        return object;
    }
}
