package dev.metahook.internal.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.internal.wire.Json;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Metacontroller's dynamic apply: the observed object, the configuration last applied and the new
 * desired one merged like {@code kubectl apply}. Fields removed from the desired object since last
 * time are deleted; lists whose items all share a conventional key are merged item by item; every
 * other list and every scalar is replaced.
 */
public final class ThreeWayMerge {
    /** The candidate merge keys, in the order Metacontroller tries them. */
    static final List<String> MERGE_KEYS = List.of("containerPort", "port", "mountPath", "name", "uid", "ip", "path");

    private ThreeWayMerge() {
    }

    public static JsonNode merge(JsonNode observed, JsonNode lastApplied, JsonNode desired) {
        if (desired.isObject() && observed != null && observed.isObject()) {
            return mergeObject((ObjectNode) observed, lastApplied, (ObjectNode) desired);
        }
        if (desired.isArray() && observed != null && observed.isArray()) {
            String key = mergeKey(observed, lastApplied, desired);
            if (key != null) {
                return mergeList((ArrayNode) observed, lastApplied, (ArrayNode) desired, key);
            }
        }
        return desired.deepCopy();
    }

    private static ObjectNode mergeObject(ObjectNode observed, JsonNode lastApplied, ObjectNode desired) {
        ObjectNode result = observed.deepCopy();
        if (lastApplied != null && lastApplied.isObject()) {
            lastApplied.fieldNames().forEachRemaining(name -> {
                if (!desired.has(name)) {
                    result.remove(name);
                }
            });
        }
        desired.properties().iterator().forEachRemaining(field -> result.set(field.getKey(),
                merge(observed.get(field.getKey()), lastApplied == null ? null : lastApplied.get(field.getKey()), field.getValue())));
        return result;
    }

    private static ArrayNode mergeList(ArrayNode observed, JsonNode lastApplied, ArrayNode desired, String key) {
        Map<String, JsonNode> desiredByKey = byKey(desired, key);
        Map<String, JsonNode> appliedByKey = lastApplied != null && lastApplied.isArray() ? byKey(lastApplied, key) : Map.of();
        ArrayNode result = Json.mapper().createArrayNode();
        Map<String, Boolean> placed = new LinkedHashMap<>();
        for (JsonNode item : observed) {
            String id = item.get(key).asText();
            JsonNode wanted = desiredByKey.get(id);
            if (wanted != null) {
                result.add(merge(item, appliedByKey.get(id), wanted));
                placed.put(id, true);
            } else if (!appliedByKey.containsKey(id)) {
                result.add(item.deepCopy());
            }
        }
        desiredByKey.forEach((id, item) -> {
            if (!placed.containsKey(id)) {
                result.add(item.deepCopy());
            }
        });
        return result;
    }

    private static String mergeKey(JsonNode observed, JsonNode lastApplied, JsonNode desired) {
        for (String key : MERGE_KEYS) {
            if (allHave(observed, key) && allHave(desired, key) && (lastApplied == null || !lastApplied.isArray() || allHave(lastApplied, key))) {
                return key;
            }
        }
        return null;
    }

    private static boolean allHave(JsonNode list, String key) {
        if (list.isEmpty()) {
            return true;
        }
        for (JsonNode item : list) {
            if (!item.isObject() || !item.path(key).isValueNode()) {
                return false;
            }
        }
        return true;
    }

    private static Map<String, JsonNode> byKey(JsonNode list, String key) {
        Map<String, JsonNode> items = new LinkedHashMap<>();
        list.forEach(item -> items.put(item.get(key).asText(), item));
        return items;
    }
}
