package dev.metahook.internal.engine;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.api.Conditions;
import dev.metahook.api.TerminalException;
import dev.metahook.internal.wire.Json;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.time.Clock;
import java.util.Set;

/**
 * The status a terminal error leaves: everything the parent's status had, with {@code Ready} and
 * {@code Reconciling} False and {@code Stalled} True, all three carrying the error's reason and
 * message. Other condition types are kept after them.
 */
final class StalledStatus {
    private static final Set<String> OWN_TYPES = Set.of("Ready", "Reconciling", "Stalled");

    private StalledStatus() {
    }

    static ObjectNode of(ObjectNode parent, TerminalException error, Clock clock) {
        JsonNode previous = parent.path("status");
        ObjectNode status = previous.isObject() ? ((ObjectNode) previous).deepCopy() : Json.object();
        var conditions = Conditions.from(typed(parent), clock).stalled(error.reason(), error.getMessage()).list();
        ArrayNode list = Json.mapper().valueToTree(conditions);
        for (JsonNode other : previous.path("conditions")) {
            if (!OWN_TYPES.contains(other.path("type").asText())) {
                list.add(other);
            }
        }
        status.set("conditions", list);
        return status;
    }

    /** The parent as a model object, for the conditions it carries; read only on this rare path. */
    private static GenericKubernetesResource typed(ObjectNode parent) {
        try {
            return Json.convert(parent, GenericKubernetesResource.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the parent was read once already: " + e.getOriginalMessage(), e);
        }
    }
}
