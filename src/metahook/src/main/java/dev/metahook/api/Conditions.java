package dev.metahook.api;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahook.internal.wire.Json;
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
        Long generation = parent.getMetadata() == null ? null : parent.getMetadata().getGeneration();
        JsonNode status;
        if (parent instanceof CustomResource<?, ?> resource) {
            status = resource.getStatus() == null ? Json.object() : Json.tree(resource.getStatus());
        } else {
            status = Json.tree(parent).path("status");
        }
        return new Conditions(previous(status), generation, clock);
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

    /**
     * The kstatus summary in one call: {@code Ready} True, {@code Reconciling} and {@code Stalled}
     * False, all three with this reason and message.
     */
    public Conditions ready(String reason, String message) {
        return summary(ConditionStatus.TRUE, ConditionStatus.FALSE, ConditionStatus.FALSE, reason, message);
    }

    /** Work is under way and will finish by itself: {@code Reconciling} True, the other two False. */
    public Conditions reconciling(String reason, String message) {
        return summary(ConditionStatus.FALSE, ConditionStatus.TRUE, ConditionStatus.FALSE, reason, message);
    }

    /** It cannot progress until a person changes something: {@code Stalled} True, the other two False. */
    public Conditions stalled(String reason, String message) {
        return summary(ConditionStatus.FALSE, ConditionStatus.FALSE, ConditionStatus.TRUE, reason, message);
    }

    /** {@code Ready}, {@code Reconciling} and {@code Stalled}, in that order, with one reason and message. */
    public Conditions summary(ConditionStatus ready, ConditionStatus reconciling, ConditionStatus stalled, String reason,
                              String message) {
        return set("Ready", ready, reason, message).set("Reconciling", reconciling, reason, message)
                .set("Stalled", stalled, reason, message);
    }

    /** Sets one condition True or False; setting the same type again replaces it in place. */
    public Conditions set(String type, boolean status, String reason, String message) {
        return set(type, ConditionStatus.of(status), reason, message);
    }

    /** Sets one condition, {@code Unknown} included; setting the same type again replaces it in place. */
    public Conditions set(String type, ConditionStatus status, String reason, String message) {
        if (type == null || type.isEmpty() || status == null) {
            throw new IllegalArgumentException("a condition needs a type and a status");
        }
        Condition condition = new Condition(lastTransitionTime(type, status.text()), truncate(message), generation,
                checkReason(reason), status.text(), type);
        current.put(type, condition);
        return this;
    }

    /** The reason, if it is CamelCase as Kubernetes requires of a condition's reason. */
    static String checkReason(String reason) {
        if (reason == null || reason.length() > MAX_REASON || !REASON.matcher(reason).matches()) {
            throw new IllegalArgumentException("condition reason '" + reason + "' is not CamelCase as Kubernetes requires"
                    + " (a letter, then letters, digits, '_', ',' or ':')");
        }
        return reason;
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
