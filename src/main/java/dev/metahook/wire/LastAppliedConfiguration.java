package dev.metahook.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The {@code metacontroller.k8s.io/last-applied-configuration} annotation Metacontroller puts on
 * every child it creates or updates: the compact JSON of what the hook last asked for.
 */
public final class LastAppliedConfiguration {
    public static final String ANNOTATION = "metacontroller.k8s.io/last-applied-configuration";

    private LastAppliedConfiguration() {
    }

    /** What the annotation holds, when there is one and it is a JSON object. */
    public static Optional<ObjectNode> of(JsonNode observed) {
        JsonNode text = observed.path("metadata").path("annotations").path(ANNOTATION);
        if (!text.isTextual()) {
            return Optional.empty();
        }
        try {
            JsonNode parsed = Json.parse(text.textValue().getBytes(StandardCharsets.UTF_8));
            return parsed.isObject() ? Optional.of((ObjectNode) parsed) : Optional.empty();
        } catch (MalformedRequestException unreadable) {
            return Optional.empty();
        }
    }
}
