package dev.metahook.internal.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.internal.wire.CanonicalJson;
import dev.metahook.internal.wire.GroupKey;
import dev.metahook.internal.wire.Json;
import dev.metahook.internal.wire.LabelSelectors;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Which objects a DecoratorController decorates: those of a type in its {@code spec.resources}
 * (matched by API group and kind, the version aside, as Metacontroller keys them) whose labels match
 * the type's {@code labelSelector} and whose annotations match its {@code annotationSelector}
 * ({@code matchAnnotations} and {@code matchExpressions}). An absent selector selects everything.
 * A target that stops matching is finalized when the decorator has a finalize hook, and left alone
 * once it has no finalizer of the decorator.
 */
final class DecoratorSelector {
    private final ControllerSpec spec;
    private final ResourceKinds kinds;

    DecoratorSelector(ControllerSpec spec, ResourceKinds kinds) {
        this.spec = spec;
        this.kinds = kinds;
    }

    /** Whether the decorator selects this object. */
    boolean matches(JsonNode object) {
        return rule(object).map(rule -> matches(rule, object)).orElse(false);
    }

    /**
     * The object changed in one label or annotation so that the decorator no longer selects it (the
     * first requirement of its selectors that one change can break), or empty when none can: no
     * selector, or a type the decorator does not name.
     */
    Optional<Change> unmatched(JsonNode object) {
        Optional<JsonNode> rule = rule(object);
        if (rule.isEmpty()) {
            return Optional.empty();
        }
        List<Change> candidates = new ArrayList<>();
        candidates(rule.get().path("labelSelector").path("matchLabels"), rule.get().path("labelSelector").path("matchExpressions"),
                "labels", object, candidates);
        candidates(rule.get().path("annotationSelector").path("matchAnnotations"),
                rule.get().path("annotationSelector").path("matchExpressions"), "annotations", object, candidates);
        return candidates.stream().filter(change -> !matches(rule.get(), change.object())).findFirst();
    }

    /** An object changed in one key of its labels or annotations, and that change in words ({@code label app removed}). */
    record Change(ObjectNode object, String field, String key, String description) {
        /** The current object with the key as it was in the original, before the change. */
        ObjectNode undone(JsonNode current, JsonNode original) {
            JsonNode value = original.path("metadata").path(field).get(key);
            return value == null ? without(current, field, key) : with(current, field, key, value.asText());
        }
    }

    /** The selectors of the object's type, as one line. */
    String describe(JsonNode object) {
        return rule(object).map(rule -> {
            List<String> parts = new ArrayList<>();
            if (rule.has("labelSelector")) {
                parts.add("labelSelector " + CanonicalJson.string(rule.get("labelSelector")));
            }
            if (rule.has("annotationSelector")) {
                parts.add("annotationSelector " + CanonicalJson.string(rule.get("annotationSelector")));
            }
            return parts.isEmpty() ? "no selector" : String.join(", ", parts);
        }).orElse("no resource of kind " + object.path("kind").asText() + " in group '" + group(object.path("apiVersion").asText()) + "'");
    }

    /**
     * The rule of {@code spec.resources} for the object's type: its resource names the object's kind
     * (known or learned), or, when no rule does, a rule of the same group whose kind is still unknown.
     */
    private Optional<JsonNode> rule(JsonNode object) {
        kinds.learn(object);
        String kind = object.path("kind").asText();
        String group = group(object.path("apiVersion").asText());
        JsonNode unknown = null;
        for (JsonNode rule : spec.manifest().path("spec").path("resources")) {
            String apiVersion = rule.path("apiVersion").asText();
            if (!group(apiVersion).equals(group)) {
                continue;
            }
            String ruleKind = kinds.kind(apiVersion, rule.path("resource").asText());
            if (kind.equals(ruleKind) || rule.path("resource").asText().equals(GroupKey.guessResource(kind))) {
                return Optional.of(rule);
            }
            if (ruleKind == null && unknown == null) {
                unknown = rule;
            }
        }
        return Optional.ofNullable(unknown);
    }

    private static boolean matches(JsonNode rule, JsonNode object) {
        JsonNode metadata = object.path("metadata");
        JsonNode annotationSelector = rule.path("annotationSelector");
        ObjectNode asLabels = Json.object();
        asLabels.set("matchLabels", annotationSelector.path("matchAnnotations").deepCopy());
        asLabels.set("matchExpressions", annotationSelector.path("matchExpressions").deepCopy());
        return LabelSelectors.matches(rule.path("labelSelector"), metadata.path("labels"))
                && LabelSelectors.matches(asLabels, metadata.path("annotations"));
    }

    /** One change per requirement: a required key removed, a forbidden key or value set. */
    private static void candidates(JsonNode matchMap, JsonNode expressions, String field, JsonNode object, List<Change> out) {
        String word = field.equals("labels") ? "label" : "annotation";
        matchMap.fieldNames().forEachRemaining(key -> out.add(new Change(without(object, field, key), field, key, word + " " + key + " removed")));
        for (JsonNode expression : expressions) {
            String key = expression.path("key").asText();
            switch (expression.path("operator").asText()) {
                case "In", "Exists" -> out.add(new Change(without(object, field, key), field, key, word + " " + key + " removed"));
                case "NotIn" -> {
                    String value = expression.path("values").path(0).asText("");
                    out.add(new Change(with(object, field, key, value), field, key, word + " " + key + " set to '" + value + "'"));
                }
                case "DoesNotExist" -> out.add(new Change(with(object, field, key, "set-by-check"), field, key, word + " " + key + " added"));
                default -> {
                }
            }
        }
    }

    private static ObjectNode without(JsonNode object, String field, String key) {
        ObjectNode copy = object.deepCopy();
        if (copy.path("metadata").path(field) instanceof ObjectNode map) {
            map.remove(key);
            if (map.isEmpty()) {
                copy.withObjectProperty("metadata").remove(field);
            }
        }
        return copy;
    }

    private static ObjectNode with(JsonNode object, String field, String key, String value) {
        ObjectNode copy = object.deepCopy();
        ObjectNode metadata = copy.withObjectProperty("metadata");
        if (!metadata.path(field).isObject()) {
            metadata.putObject(field);
        }
        ((ObjectNode) metadata.get(field)).put(key, value);
        return copy;
    }

    private static String group(String apiVersion) {
        int slash = apiVersion.indexOf('/');
        return slash < 0 ? "" : apiVersion.substring(0, slash);
    }
}
