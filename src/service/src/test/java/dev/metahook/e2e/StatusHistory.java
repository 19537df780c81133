package dev.metahook.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.api.ChildId;
import dev.metahook.internal.sim.Ids;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Every status each parent was seen with, in order. */
final class StatusHistory {
    private final Map<ChildId, List<JsonNode>> statuses = new ConcurrentHashMap<>();

    void record(ObjectNode parent) {
        record(Ids.of(parent), parent.path("status"));
    }

    void record(ChildId parent, JsonNode status) {
        List<JsonNode> seen = statuses.computeIfAbsent(parent, ref -> new ArrayList<>());
        synchronized (seen) {
            if (seen.isEmpty() || !seen.get(seen.size() - 1).equals(status)) {
                seen.add(status.deepCopy());
            }
        }
    }

    /** The values at a pointer into the parent, such as {@code /status/phase}. */
    List<String> seen(ChildId parent, String pointer) {
        if (!pointer.startsWith("/status/")) {
            throw new IllegalArgumentException("only the status is recorded: " + pointer);
        }
        List<String> values = new ArrayList<>();
        List<JsonNode> seen = statuses.getOrDefault(parent, List.of());
        synchronized (seen) {
            for (JsonNode status : seen) {
                JsonNode value = status.at(pointer.substring("/status".length()));
                String text = value.isMissingNode() ? null : value.isValueNode() ? value.asText() : value.toString();
                if (text != null && (values.isEmpty() || !values.get(values.size() - 1).equals(text))) {
                    values.add(text);
                }
            }
        }
        return values;
    }
}
