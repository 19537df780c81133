package dev.metahook.internal.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * What the API server keeps of a custom resource written to it: the fields its CRD's structural schema
 * declares. An object's field that the schema's {@code properties} do not name is dropped without a word,
 * unless the schema says {@code x-kubernetes-preserve-unknown-fields: true} (or gives
 * {@code additionalProperties}, whose schema then applies to every value); {@code items} applies to every
 * element of an array. An embedded resource ({@code x-kubernetes-embedded-resource}) keeps its
 * {@code apiVersion}, {@code kind} and {@code metadata}. Values are not validated here, only pruned.
 */
public final class SchemaPruning {
    private SchemaPruning() {
    }

    /**
     * Prunes {@code value} in place by {@code schema}; returns the paths it dropped
     * ({@code status.conditions}), {@code prefix} naming where {@code value} is.
     */
    public static List<String> prune(JsonNode schema, JsonNode value, String prefix) {
        List<String> dropped = new ArrayList<>();
        prune(schema, value, prefix, dropped);
        return dropped;
    }

    private static void prune(JsonNode schema, JsonNode value, String path, List<String> dropped) {
        if (schema == null || schema.isMissingNode() || schema.isNull()) {
            return;
        }
        if (value instanceof ArrayNode array) {
            for (int i = 0; i < array.size(); i++) {
                prune(schema.get("items"), array.get(i), path + "[" + i + "]", dropped);
            }
            return;
        }
        if (!(value instanceof ObjectNode object)) {
            return;
        }
        JsonNode properties = schema.path("properties");
        JsonNode additional = schema.get("additionalProperties");
        boolean preserve = schema.path("x-kubernetes-preserve-unknown-fields").asBoolean(false);
        boolean embedded = schema.path("x-kubernetes-embedded-resource").asBoolean(false);
        List<String> names = new ArrayList<>();
        object.fieldNames().forEachRemaining(names::add);
        for (String name : names) {
            String at = path.isEmpty() ? name : path + "." + name;
            if (properties.has(name)) {
                prune(properties.get(name), object.get(name), at, dropped);
            } else if (additional != null && additional.isObject()) {
                prune(additional, object.get(name), at, dropped);
            } else if (embedded && (name.equals("apiVersion") || name.equals("kind") || name.equals("metadata"))) {
                continue;
            } else if (!preserve && !(additional != null && additional.asBoolean(false))) {
                object.remove(name);
                dropped.add(at);
            }
        }
    }
}
