package dev.metahook.api;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahook.wire.Json;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.time.Clock;
import java.time.YearMonth;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Builds a parent's {@code status.conditions} in the Kubernetes {@code metav1.Condition} schema. A
 * condition whose status did not change keeps the {@code lastTransitionTime} it had, so the same
 * observed state gives the same status and Metacontroller does not write, and call, in a loop.
 * Conditions come out in the order they were set.
 */
public final class Conditions {
    private static final Pattern REASON = Pattern.compile("^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$");
    private static final Pattern RFC_3339 = Pattern.compile(
            "\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])T([01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(\\.\\d{1,9})?(Z|[+-]([01]\\d|2[0-3]):[0-5]\\d)");
    private static final int MAX_REASON = 1024;
    private static final int MAX_MESSAGE = 32768;

    private final Map<String, JsonNode> previous;
    private final Long generation;
    private final Clock clock;
    private final Map<String, Condition> current = new LinkedHashMap<>();

    private Conditions(Map<String, JsonNode> previous, Long generation, Clock clock) {
        this.previous = previous;
        this.generation = generation;
        this.clock = clock;
    }

    /** Conditions for this parent, carrying forward what its current status holds. */
    public static Conditions from(HasMetadata parent, Clock clock) {
        if (parent instanceof CustomResource<?, ?> resource) {
            JsonNode status = resource.getStatus() == null ? Json.object() : Json.tree(resource.getStatus());
            Long generation = parent.getMetadata() == null ? null : parent.getMetadata().getGeneration();
            return new Conditions(previous(status), generation, clock);
        }
        return from(Json.tree(parent), clock);
    }

    /** The same, from the parent as a JSON tree. */
    public static Conditions from(JsonNode parent, Clock clock) {
        JsonNode generation = parent.path("metadata").path("generation");
        return new Conditions(previous(parent.path("status")), generation.canConvertToLong() ? generation.longValue() : null, clock);
    }

    private static Map<String, JsonNode> previous(JsonNode status) {
        Map<String, JsonNode> previous = new HashMap<>();
        for (JsonNode condition : status.path("conditions")) {
            if (condition.path("type").isTextual()) {
                previous.putIfAbsent(condition.path("type").textValue(), condition);
            }
        }
        return previous;
    }

    /** Sets one condition; setting the same type again replaces it in place. */
    public Conditions set(String type, boolean status, String reason, String message) {
        if (!REASON.matcher(reason).matches() || reason.length() > MAX_REASON) {
            throw new IllegalArgumentException("condition reason '" + reason + "' is not CamelCase as Kubernetes requires");
        }
        String statusText = status ? "True" : "False";
        Condition condition = new Condition(lastTransitionTime(type, statusText), truncate(message), generation, reason,
                statusText, type);
        current.put(type, condition);
        return this;
    }

    /** The conditions set so far, in order. */
    public List<Condition> list() {
        return List.copyOf(current.values());
    }

    private String lastTransitionTime(String type, String status) {
        JsonNode before = previous.get(type);
        if (before != null && status.equals(before.path("status").asText()) && parses(before.path("lastTransitionTime"))) {
            return before.path("lastTransitionTime").textValue();
        }
        return DateTimeFormatter.ISO_INSTANT.format(clock.instant().truncatedTo(ChronoUnit.SECONDS));
    }

    /** Whether a carried-forward time is RFC 3339 as the API server writes it, checked without a date parser (it runs on every call). */
    private static boolean parses(JsonNode time) {
        if (!time.isTextual() || !RFC_3339.matcher(time.textValue()).matches()) {
            return false;
        }
        String text = time.textValue();
        int day = Integer.parseInt(text.substring(8, 10));
        return day <= 28 || day <= YearMonth.of(Integer.parseInt(text.substring(0, 4)), Integer.parseInt(text.substring(5, 7))).lengthOfMonth();
    }

    private static String truncate(String message) {
        String text = message == null ? "" : message;
        return text.length() <= MAX_MESSAGE ? text : text.substring(0, MAX_MESSAGE);
    }
}
