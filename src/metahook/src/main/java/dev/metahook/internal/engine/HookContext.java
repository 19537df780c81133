package dev.metahook.internal.engine;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import dev.metahook.api.Context;
import dev.metahook.api.ControllerInfo;
import dev.metahook.api.ObservedChildren;
import dev.metahook.api.ObservedObjects;
import dev.metahook.internal.wire.Json;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;

/**
 * What one call gives a controller besides its parent. {@code parent} is the parent (or target) as
 * the request carried it, shared with the request: only read.
 */
record HookContext(ObservedChildren children, ObservedObjects related, ControllerInfo controller, boolean finalizing,
                   Clock clock, JsonNode parent) implements Context {
    private static final TypeReference<Map<String, Object>> OBJECT = new TypeReference<>() {
    };

    @Override
    public Optional<Map<String, Object>> rawStatus() {
        JsonNode status = parent.path("status");
        return status.isObject() ? Optional.of(Json.mapper().convertValue(status, OBJECT)) : Optional.empty();
    }
}
