package dev.metahook.internal.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.metahook.internal.wire.Json;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * A body as it may be logged: the values of every Secret's {@code data} and {@code stringData}
 * replaced, also inside last-applied annotations (which hold a copy of the object), wherever the
 * Secret sits (parent, child, related, answer). A body that is not JSON is not shown at all: nobody
 * can say what in it is secret.
 */
final class SecretRedaction {
    static final String REDACTED = "<redacted>";
    private static final List<String> LAST_APPLIED = List.of("metacontroller.k8s.io/last-applied-configuration",
            "kubectl.kubernetes.io/last-applied-configuration");

    private SecretRedaction() {
    }

    static String of(byte[] body) {
        if (body.length == 0) {
            return "";
        }
        JsonNode tree;
        try {
            tree = Json.mapper().readTree(body);
        } catch (IOException e) {
            return "<" + body.length + " bytes, not JSON: not shown>";
        }
        return tree == null ? "" : redacted(tree).toString();
    }

    private static JsonNode redacted(JsonNode node) {
        if (node instanceof ObjectNode object) {
            if ("Secret".equals(object.path("kind").asText(null))) {
                hideValues(object, "data");
                hideValues(object, "stringData");
            }
            if (object.get("metadata") instanceof ObjectNode metadata && metadata.get("annotations") instanceof ObjectNode annotations) {
                LAST_APPLIED.forEach(name -> redactAnnotation(annotations, name));
            }
            for (Map.Entry<String, JsonNode> field : object.properties()) {
                redacted(field.getValue());
            }
        } else if (node instanceof ArrayNode array) {
            array.forEach(SecretRedaction::redacted);
        }
        return node;
    }

    /** Keeps the keys (which say what is there), never the values; a field of another shape goes whole. */
    private static void hideValues(ObjectNode secret, String field) {
        JsonNode values = secret.get(field);
        if (values instanceof ObjectNode map) {
            map.properties().forEach(entry -> entry.setValue(TextNode.valueOf(REDACTED)));
        } else if (values != null && !values.isNull()) {
            secret.put(field, REDACTED);
        }
    }

    /** A last-applied copy, redacted as its object; one that cannot be read is hidden whole. */
    private static void redactAnnotation(ObjectNode annotations, String name) {
        JsonNode value = annotations.get(name);
        if (value == null || !value.isTextual()) {
            return;
        }
        try {
            JsonNode copy = Json.mapper().readTree(value.textValue());
            annotations.put(name, copy == null ? "" : redacted(copy).toString());
        } catch (IOException e) {
            annotations.put(name, REDACTED);
        }
    }
}
