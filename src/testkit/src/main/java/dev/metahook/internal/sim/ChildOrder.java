package dev.metahook.internal.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.api.ChildId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * When two answers differ for Metacontroller: it keys the desired children (or attachments) by type
 * and name, so their order in the list is no difference, except among children of a rolling update
 * strategy ({@code RollingRecreate}, {@code RollingInPlace}), which it rolls one at a time in the
 * answer's order.
 */
final class ChildOrder {
    private ChildOrder() {
    }

    /** The first difference between two answers that Metacontroller acts on, in words; empty when there is none. */
    static Optional<String> difference(ControllerSpec spec, JsonNode first, JsonNode second) {
        String field = spec.decorator() ? "attachments" : "children";
        ObjectNode firstRest = first.deepCopy();
        ObjectNode secondRest = second.deepCopy();
        JsonNode firstList = firstRest.remove(field);
        JsonNode secondList = secondRest.remove(field);
        if (!firstRest.equals(secondRest)) {
            return Optional.of("first difference at " + Checker.firstDifference(firstRest, secondRest, ""));
        }
        if (firstList == null || secondList == null || !firstList.isArray() || !secondList.isArray()) {
            return Objects.equals(firstList, secondList) ? Optional.empty()
                    : Optional.of("first difference at " + Checker.firstDifference(first, second, ""));
        }
        Map<ChildId, JsonNode> firstByRef = byRef(firstList);
        Map<ChildId, JsonNode> secondByRef = byRef(secondList);
        Set<ChildId> refs = new LinkedHashSet<>(firstByRef.keySet());
        refs.addAll(secondByRef.keySet());
        for (ChildId ref : refs) {
            JsonNode a = firstByRef.get(ref);
            JsonNode b = secondByRef.get(ref);
            if (a == null || b == null) {
                return Optional.of("/" + field + " has " + Ids.text(ref) + " in the " + (a == null ? "second" : "first") + " answer only");
            }
            if (!a.equals(b)) {
                return Optional.of("first difference at /" + field + "[" + Ids.text(ref) + "]" + Checker.firstDifference(a, b, ""));
            }
        }
        return rollingOrder(spec, field, firstList, secondList);
    }

    /** The children of each rolling type in answer order; a type whose order differs is the difference. */
    private static Optional<String> rollingOrder(ControllerSpec spec, String field, JsonNode first, JsonNode second) {
        Map<String, List<String>> firstOrder = rolling(spec, first);
        Map<String, List<String>> secondOrder = rolling(spec, second);
        for (Map.Entry<String, List<String>> type : firstOrder.entrySet()) {
            List<String> other = secondOrder.get(type.getKey());
            if (!type.getValue().equals(other)) {
                return Optional.of("/" + field + " lists the " + type.getKey() + " in another order (" + String.join(", ", type.getValue())
                        + " vs " + String.join(", ", other) + "), and Metacontroller rolls them one at a time in the answer's order");
            }
        }
        return Optional.empty();
    }

    /** Per rolling type ({@code RollingRecreate children Pod.v1}), the names in answer order. */
    private static Map<String, List<String>> rolling(ControllerSpec spec, JsonNode list) {
        Map<String, List<String>> order = new TreeMap<>();
        for (JsonNode child : list) {
            String apiVersion = child.path("apiVersion").asText();
            String kind = child.path("kind").asText();
            String method = spec.updateMethod(apiVersion, ResourceKinds.resourceOf(kind));
            if (method.startsWith("Rolling")) {
                ChildId ref = Ids.of(child);
                order.computeIfAbsent(method + " " + (spec.decorator() ? "attachments " : "children ") + kind + "." + apiVersion,
                        type -> new ArrayList<>()).add(ref.namespace().isEmpty() ? ref.name() : ref.namespace() + "/" + ref.name());
            }
        }
        return order;
    }

    /** The list keyed as Metacontroller keys it; a second child of the same identity replaces the first. */
    private static Map<ChildId, JsonNode> byRef(JsonNode list) {
        Map<ChildId, JsonNode> byRef = new LinkedHashMap<>();
        list.forEach(child -> byRef.put(Ids.of(child), child));
        return byRef;
    }
}
