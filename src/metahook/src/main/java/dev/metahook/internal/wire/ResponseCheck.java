package dev.metahook.internal.wire;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * Reads a hook response the way Metacontroller's decoder does and lists every reason it would refuse
 * it (what Metacontroller refuses after decoding, such as a related rule's combinations, is
 * {@code contract.AnswerRules}'). In strict mode (the v2 default) unknown top-level fields are refused too; in loose mode they are
 * ignored, which is how a misspelled {@code children} deletes every child.
 */
public final class ResponseCheck {
    private static final Set<String> COMPOSITE_FIELDS = Set.of("status", "children", "resyncAfterSeconds", "finalized");
    private static final Set<String> DECORATOR_FIELDS =
            Set.of("labels", "annotations", "status", "attachments", "resyncAfterSeconds", "finalized");
    private static final Set<String> RULE_FIELDS =
            Set.of("apiVersion", "resource", "labelSelector", "namespaceSelector", "namespace", "names");
    private static final Set<String> SELECTOR_FIELDS = Set.of("matchLabels", "matchExpressions");

    private ResponseCheck() {
    }

    /** The top-level fields of a sync or finalize answer: a CompositeController's, or a DecoratorController's. */
    public static Set<String> fields(boolean decorator) {
        return decorator ? DECORATOR_FIELDS : COMPOSITE_FIELDS;
    }

    public static List<String> composite(JsonNode response, boolean strict) {
        List<String> problems = new ArrayList<>();
        if (!topLevel(response, COMPOSITE_FIELDS, strict, problems)) {
            return problems;
        }
        optionalObject(response.get("status"), "/status", problems);
        objectList(response.get("children"), "/children", problems);
        optionalNumber(response.get("resyncAfterSeconds"), "/resyncAfterSeconds", problems);
        optionalBoolean(response.get("finalized"), "/finalized", problems);
        return problems;
    }

    public static List<String> decorator(JsonNode response, boolean strict) {
        List<String> problems = new ArrayList<>();
        if (!topLevel(response, DECORATOR_FIELDS, strict, problems)) {
            return problems;
        }
        stringMap(response.get("labels"), "/labels", problems);
        stringMap(response.get("annotations"), "/annotations", problems);
        optionalObject(response.get("status"), "/status", problems);
        objectList(response.get("attachments"), "/attachments", problems);
        optionalNumber(response.get("resyncAfterSeconds"), "/resyncAfterSeconds", problems);
        optionalBoolean(response.get("finalized"), "/finalized", problems);
        return problems;
    }

    public static List<String> customize(JsonNode response, boolean strict) {
        List<String> problems = new ArrayList<>();
        if (!topLevel(response, Set.of("relatedResources"), strict, problems)) {
            return problems;
        }
        JsonNode rules = response.get("relatedResources");
        if (rules == null || rules.isNull()) {
            return problems;
        }
        if (!rules.isArray()) {
            problems.add("/relatedResources: expected an array, got " + Shapes.describe(rules));
            return problems;
        }
        for (int i = 0; i < rules.size(); i++) {
            rule(rules.get(i), "/relatedResources/" + i, strict, problems);
        }
        return problems;
    }

    private static void rule(JsonNode rule, String pointer, boolean strict, List<String> problems) {
        if (!rule.isObject()) {
            problems.add(pointer + ": expected an object, got " + Shapes.describe(rule));
            return;
        }
        if (strict) {
            unknownFields(rule, RULE_FIELDS, pointer, problems);
        }
        requiredString(rule.get("apiVersion"), pointer + "/apiVersion", problems);
        requiredString(rule.get("resource"), pointer + "/resource", problems);
        selector(rule.get("labelSelector"), pointer + "/labelSelector", strict, problems);
        selector(rule.get("namespaceSelector"), pointer + "/namespaceSelector", strict, problems);
    }

    private static void selector(JsonNode selector, String pointer, boolean strict, List<String> problems) {
        if (!present(selector)) {
            return;
        }
        if (!selector.isObject()) {
            problems.add(pointer + ": expected a label selector object, got " + Shapes.describe(selector));
            return;
        }
        if (strict) {
            unknownFields(selector, SELECTOR_FIELDS, pointer, problems);
        }
        stringMap(selector.get("matchLabels"), pointer + "/matchLabels", problems);
    }

    private static boolean topLevel(JsonNode response, Set<String> known, boolean strict, List<String> problems) {
        if (response == null || !response.isObject()) {
            problems.add("the response is " + (response == null ? "empty" : Shapes.describe(response)) + ", expected an object");
            return false;
        }
        if (strict) {
            unknownFields(response, known, "", problems);
        }
        return true;
    }

    private static void unknownFields(JsonNode node, Set<String> known, String pointer, List<String> problems) {
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String name = it.next();
            if (!known.contains(name)) {
                problems.add(pointer + "/" + Shapes.escape(name) + ": unknown field (strict decoding refuses it)");
            }
        }
    }

    private static void objectList(JsonNode list, String pointer, List<String> problems) {
        if (!present(list)) {
            return;
        }
        if (!list.isArray()) {
            problems.add(pointer + ": expected an array, got " + Shapes.describe(list));
            return;
        }
        for (int i = 0; i < list.size(); i++) {
            JsonNode object = list.get(i);
            String at = pointer + "/" + i;
            if (!object.isObject()) {
                problems.add(at + ": expected an object, got " + Shapes.describe(object));
            } else if (!object.path("kind").isTextual() || object.path("kind").textValue().isEmpty()) {
                problems.add(at + ": Object 'Kind' is missing");
            }
        }
    }

    private static void stringMap(JsonNode map, String pointer, List<String> problems) {
        if (!present(map)) {
            return;
        }
        if (!map.isObject()) {
            problems.add(pointer + ": expected an object of strings, got " + Shapes.describe(map));
            return;
        }
        map.properties().iterator().forEachRemaining(e -> {
            if (!e.getValue().isTextual() && !e.getValue().isNull()) {
                problems.add(pointer + "/" + Shapes.escape(e.getKey()) + ": expected a string, got " + Shapes.describe(e.getValue()));
            }
        });
    }

    private static void optionalObject(JsonNode node, String pointer, List<String> problems) {
        if (present(node) && !node.isObject()) {
            problems.add(pointer + ": expected an object, got " + Shapes.describe(node));
        }
    }

    private static void optionalNumber(JsonNode node, String pointer, List<String> problems) {
        if (present(node) && !node.isNumber()) {
            problems.add(pointer + ": expected a number, got " + Shapes.describe(node));
        }
    }

    private static void optionalBoolean(JsonNode node, String pointer, List<String> problems) {
        if (present(node) && !node.isBoolean()) {
            problems.add(pointer + ": expected a boolean, got " + Shapes.describe(node));
        }
    }

    private static void requiredString(JsonNode node, String pointer, List<String> problems) {
        if (node == null || !node.isTextual() || node.textValue().isEmpty()) {
            problems.add(pointer + ": required string is missing");
        }
    }

    private static boolean present(JsonNode node) {
        return node != null && !node.isNull();
    }
}
