package dev.metahook.internal.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** Shape checks with messages that name the field by its JSON pointer. */
final class Shapes {
    private Shapes() {
    }

    static ObjectNode object(JsonNode node, String pointer) {
        if (node == null || node.isMissingNode()) {
            throw new MalformedRequestException(pointer, pointer + ": required field is missing");
        }
        if (!node.isObject()) {
            throw new MalformedRequestException(pointer, pointer + ": expected an object, got " + describe(node));
        }
        return (ObjectNode) node;
    }

    /** An object that has what every Kubernetes object has: kind, apiVersion and metadata.name as strings. */
    static ObjectNode kubernetesObject(JsonNode node, String pointer) {
        ObjectNode object = object(node, pointer);
        string(object.get("kind"), pointer + "/kind");
        string(object.get("apiVersion"), pointer + "/apiVersion");
        ObjectNode metadata = object(object.get("metadata"), pointer + "/metadata");
        string(metadata.get("name"), pointer + "/metadata/name");
        JsonNode namespace = metadata.get("namespace");
        if (namespace != null && !namespace.isNull() && !namespace.isTextual()) {
            throw new MalformedRequestException(pointer + "/metadata/namespace",
                    pointer + "/metadata/namespace: expected a string, got " + describe(namespace));
        }
        return object;
    }

    static String string(JsonNode node, String pointer) {
        if (node == null || node.isMissingNode() || node.isNull()) {
            throw new MalformedRequestException(pointer, pointer + ": required field is missing");
        }
        if (!node.isTextual() || node.textValue().isEmpty()) {
            throw new MalformedRequestException(pointer, pointer + ": expected a non-empty string, got " + describe(node));
        }
        return node.textValue();
    }

    static boolean optionalBoolean(JsonNode node, String pointer) {
        if (node == null || node.isNull()) {
            return false;
        }
        if (!node.isBoolean()) {
            throw new MalformedRequestException(pointer, pointer + ": expected a boolean, got " + describe(node));
        }
        return node.booleanValue();
    }

    static String describe(JsonNode node) {
        return switch (node.getNodeType()) {
            case OBJECT -> "an object";
            case ARRAY -> "an array";
            case STRING -> "a string";
            case NUMBER -> "a number";
            case BOOLEAN -> "a boolean";
            case NULL -> "null";
            default -> "nothing";
        };
    }

    /** RFC 6901 escaping of one pointer segment. */
    static String escape(String segment) {
        return segment.replace("~", "~0").replace("/", "~1");
    }
}
