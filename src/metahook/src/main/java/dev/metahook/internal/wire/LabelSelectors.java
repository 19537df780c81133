package dev.metahook.internal.wire;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashSet;
import java.util.Set;

/** Kubernetes label selector matching ({@code matchLabels} and {@code matchExpressions}). */
public final class LabelSelectors {
    private LabelSelectors() {
    }

    /** Whether the selector selects anything at all; an empty selector is refused by Metacontroller. */
    public static boolean isEmpty(JsonNode selector) {
        return selector.path("matchLabels").size() == 0 && selector.path("matchExpressions").size() == 0;
    }

    public static boolean matches(JsonNode selector, JsonNode labels) {
        var required = selector.path("matchLabels").properties().iterator();
        while (required.hasNext()) {
            var label = required.next();
            if (!label.getValue().asText().equals(labels.path(label.getKey()).asText(null))) {
                return false;
            }
        }
        for (JsonNode expression : selector.path("matchExpressions")) {
            if (!matchesExpression(expression, labels)) {
                return false;
            }
        }
        return true;
    }

    private static boolean matchesExpression(JsonNode expression, JsonNode labels) {
        String key = expression.path("key").asText();
        JsonNode value = labels.get(key);
        Set<String> values = new HashSet<>();
        expression.path("values").forEach(v -> values.add(v.asText()));
        return switch (expression.path("operator").asText()) {
            case "In" -> value != null && values.contains(value.asText());
            case "NotIn" -> value == null || !values.contains(value.asText());
            case "Exists" -> value != null;
            case "DoesNotExist" -> value == null;
            default -> false;
        };
    }
}
