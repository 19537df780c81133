package dev.metahook.internal.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.internal.wire.ObservedObject;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The zero {@code creationTimestamp} of an object embedded in a child's list (a StatefulSet's claim templates) written
 * the way the observed child stores it. Kubernetes up to 1.33 stores it as {@code null}, 1.34 and later leave it out,
 * and the request does not say which server it is; both forms mean the same object. Metacontroller replaces such a
 * list whole when it differs from what is stored, so the form the server does not store is an update on every call.
 * Mirroring the observed form is clean on every version; without an observed child either form is, and the next
 * call mirrors what was stored. Everything else of the item is the controller's.
 */
final class StoredTimestampForm {
    private static final String FIELD = "creationTimestamp";

    private StoredTimestampForm() {
    }

    /** {@code child} (changed in place) with each embedded item's zero creationTimestamp in {@code observed}'s form. */
    static ObjectNode mirror(ObjectNode child, Optional<ObservedObject> observed) {
        return mirror(child, () -> observed.map(ObservedObject::tree));
    }

    /** The same with the stored object's tree, asked for only when the child has embedded items. */
    static ObjectNode mirror(ObjectNode child, Supplier<Optional<? extends JsonNode>> stored) {
        if (hasEmbeddedItems(child)) {
            stored.get().ifPresent(tree -> mirror((JsonNode) child, tree));
        }
        return child;
    }

    /** Whether some list holds objects with metadata of their own: the only place the form can differ. */
    private static boolean hasEmbeddedItems(JsonNode node) {
        if (node.isArray()) {
            for (JsonNode item : node) {
                if (item.path("metadata").isObject() || hasEmbeddedItems(item)) {
                    return true;
                }
            }
        } else if (node.isObject()) {
            for (JsonNode value : node) {
                if (value.isContainerNode() && hasEmbeddedItems(value)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static void mirror(JsonNode desired, JsonNode stored) {
        if (desired instanceof ObjectNode object) {
            for (Iterator<Map.Entry<String, JsonNode>> it = object.properties().iterator(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> field = it.next();
                if (field.getValue().isContainerNode()) {
                    mirror(field.getValue(), stored.path(field.getKey()));
                }
            }
        } else if (desired instanceof ArrayNode items && stored.isArray()) {
            for (int i = 0; i < items.size(); i++) {
                JsonNode item = items.get(i);
                JsonNode counterpart = counterpart(item, i, stored);
                if (item.path("metadata") instanceof ObjectNode metadata) {
                    sameForm(metadata, counterpart.path("metadata"));
                }
                mirror(item, counterpart);
            }
        }
    }

    /** The stored item of the same {@code metadata.name}, or of the same position when the item has no name. */
    private static JsonNode counterpart(JsonNode item, int index, JsonNode stored) {
        JsonNode name = item.path("metadata").path("name");
        if (!name.isTextual()) {
            return stored.path(index);
        }
        for (JsonNode candidate : stored) {
            if (name.equals(candidate.path("metadata").path("name"))) {
                return candidate;
            }
        }
        return stored.path(-1);
    }

    private static void sameForm(ObjectNode metadata, JsonNode stored) {
        if (stored.path(FIELD).isNull() && !metadata.has(FIELD)) {
            metadata.putNull(FIELD);
        } else if (metadata.path(FIELD).isNull() && stored.isObject() && !stored.has(FIELD)) {
            metadata.remove(FIELD);
        }
    }
}
