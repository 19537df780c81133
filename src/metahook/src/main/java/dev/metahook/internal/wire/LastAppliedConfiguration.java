package dev.metahook.internal.wire;

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
        return parse(observed.path("metadata").path("annotations").path(ANNOTATION).textValue());
    }

    /** The annotation's text as an object, when it is one. */
    public static Optional<ObjectNode> parse(String text) {
        if (text == null) {
            return Optional.empty();
        }
        try {
            JsonNode parsed = Json.parseChecked(text.getBytes(StandardCharsets.UTF_8));
            return parsed.isObject() ? Optional.of((ObjectNode) parsed) : Optional.empty();
        } catch (MalformedRequestException unreadable) {
            return Optional.empty();
        }
    }
}
