package dev.metahook.sim;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahook.wire.LabelSelectors;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The checks one hook call can be judged by alone: its status, its time, and the shape of its answer
 * (a CompositeController's children, a DecoratorController's attachments, a customize hook's rules).
 */
final class CallInspection {
    private static final Set<String> COMPOSITE_FIELDS = Set.of("status", "children", "resyncAfterSeconds", "finalized");
    private static final Set<String> DECORATOR_FIELDS = Set.of("labels", "annotations", "status", "attachments", "resyncAfterSeconds",
            "finalized");

    private CallInspection() {
    }

    static List<Breach> inspect(CompositeSimulator.HookCall call, Duration timeout, JsonNode parent, boolean generateSelector) {
        List<Breach> breaches = new ArrayList<>();
        if (answered(call, timeout, breaches)) {
            if (call.hook().equals("customize")) {
                call.problems().forEach(problem -> breaches.add(new Breach("malformed", call.hook() + ": " + problem)));
            } else {
                answer(call, parent, generateSelector, breaches);
            }
        }
        return breaches;
    }

    /** A DecoratorController's sync, finalize or customize call. */
    static List<Breach> inspectDecorator(CompositeSimulator.HookCall call, Duration timeout) {
        List<Breach> breaches = new ArrayList<>();
        if (!answered(call, timeout, breaches)) {
            return breaches;
        }
        if (!call.hook().equals("customize")) {
            decoratorAnswer(call, breaches);
        }
        if (breaches.isEmpty()) {
            call.problems().forEach(problem -> breaches.add(new Breach("malformed", call.hook() + ": " + problem)));
        }
        return breaches;
    }

    /** The transport checks; true when there is a decoded 200 answer to look into. */
    private static boolean answered(CompositeSimulator.HookCall call, Duration timeout, List<Breach> breaches) {
        HookClient.Reply reply = call.reply();
        if (reply.error() != null) {
            breaches.add(new Breach("no-answer", call.hook() + ": " + reply.error()));
            return false;
        }
        if (reply.took().compareTo(timeout) > 0) {
            breaches.add(new Breach("too-slow", call.hook() + " took " + reply.took().toMillis() + " ms, more than the "
                    + timeout.toMillis() + " ms Metacontroller waits"));
        }
        if (reply.status() == 429) {
            if (reply.header("Retry-After") == null) {
                breaches.add(new Breach("status", call.hook() + " answered 429 without Retry-After: Metacontroller retries at once"));
            }
            return false;
        }
        if (reply.status() != 200) {
            String body = new String(reply.body(), StandardCharsets.UTF_8);
            breaches.add(new Breach("status", call.hook() + " answered " + reply.status() + ": " + (body.length() > 200 ? body.substring(0, 200) : body)));
            return false;
        }
        if (call.response() == null) {
            call.problems().forEach(problem -> breaches.add(new Breach("malformed", call.hook() + ": " + problem)));
            return false;
        }
        return true;
    }

    private static void decoratorAnswer(CompositeSimulator.HookCall call, List<Breach> breaches) {
        JsonNode response = call.response();
        unknownFields(call, DECORATOR_FIELDS, breaches);
        int observed = call.request().path("attachments").findValues("metadata").size();
        if (!response.path("attachments").isArray() && observed > 0) {
            breaches.add(new Breach("deletes-children", call.hook() + " answered no attachments list: Metacontroller would delete all "
                    + observed + " observed attachments"));
        }
        finalizedInSync(call, breaches);
        decimals(response, "", call.hook(), breaches);
        JsonNode attachments = response.path("attachments");
        for (int i = 0; i < attachments.size(); i++) {
            object(attachments.get(i), "/attachments/" + i, call.hook(), breaches);
        }
    }

    private static void unknownFields(CompositeSimulator.HookCall call, Set<String> known, List<Breach> breaches) {
        for (Iterator<String> it = call.response().fieldNames(); it.hasNext(); ) {
            String field = it.next();
            if (!known.contains(field)) {
                breaches.add(new Breach("unknown-field", call.hook() + " answered field '" + field + "' (misspelled?): loose decoding ignores it,"
                        + " strict decoding fails the call"));
            }
        }
    }

    private static void finalizedInSync(CompositeSimulator.HookCall call, List<Breach> breaches) {
        if (call.response().path("finalized").asBoolean(false) && !call.request().path("finalizing").asBoolean(false)) {
            breaches.add(new Breach("finalized-in-sync", "sync answered finalized: true: the finalizer would be removed and added back"));
        }
    }

    private static void answer(CompositeSimulator.HookCall call, JsonNode parent, boolean generateSelector, List<Breach> breaches) {
        JsonNode response = call.response();
        unknownFields(call, COMPOSITE_FIELDS, breaches);
        int observed = call.request().path("children").findValues("metadata").size();
        if (!response.path("children").isArray() && observed > 0) {
            breaches.add(new Breach("deletes-children", call.hook() + " answered no children list: Metacontroller would delete all "
                    + observed + " observed children"));
        }
        finalizedInSync(call, breaches);
        decimals(response, "", call.hook(), breaches);
        JsonNode children = response.path("children");
        for (int i = 0; i < children.size(); i++) {
            child(children.get(i), "/children/" + i, call.hook(), parent, generateSelector, breaches);
        }
        if (breaches.isEmpty()) {
            call.problems().forEach(problem -> breaches.add(new Breach("malformed", call.hook() + ": " + problem)));
        }
    }

    private static void child(JsonNode child, String pointer, String hook, JsonNode parent, boolean generateSelector, List<Breach> breaches) {
        if (!object(child, pointer, hook, breaches)) {
            return;
        }
        JsonNode labels = child.path("metadata").path("labels");
        String uid = parent.path("metadata").path("uid").asText();
        if (generateSelector ? labels.has("controller-uid") && !labels.path("controller-uid").asText().equals(uid)
                : !LabelSelectors.matches(parent.path("spec").path("selector"), labels)
                || LabelSelectors.isEmpty(parent.path("spec").path("selector"))) {
            breaches.add(new Breach("selector", hook + " " + pointer + " (" + child.path("kind").asText() + " "
                    + child.path("metadata").path("name").asText() + ") has labels " + labels + " that miss the parent's selector"));
        }
    }

    /** A child or attachment as Metacontroller decodes it: not null, with apiVersion and kind, no nulls; false when null. */
    private static boolean object(JsonNode object, String pointer, String hook, List<Breach> breaches) {
        if (object.isNull()) {
            breaches.add(new Breach("null", hook + " " + pointer + " is null: Metacontroller crashes on it"));
            return false;
        }
        for (String field : List.of("apiVersion", "kind")) {
            if (!object.path(field).isTextual() || object.path(field).asText().isEmpty()) {
                breaches.add(new Breach("missing-" + field, hook + " " + pointer + " has no " + field));
            }
        }
        nulls(object, pointer, hook, breaches);
        return true;
    }

    /** Nulls where Go zero values land (the child's own fields and metadata) and null list items anywhere in it. */
    private static void nulls(JsonNode child, String pointer, String hook, List<Breach> breaches) {
        for (Map.Entry<String, JsonNode> field : iterable(child)) {
            if (field.getValue().isNull()) {
                breaches.add(new Breach("null", hook + " " + pointer + "/" + field.getKey() + " is null"));
            }
        }
        for (Map.Entry<String, JsonNode> field : iterable(child.path("metadata"))) {
            if (field.getValue().isNull()) {
                breaches.add(new Breach("null", hook + " " + pointer + "/metadata/" + field.getKey() + " is null"));
            }
        }
        nullItems(child, pointer, hook, breaches);
    }

    private static void nullItems(JsonNode node, String pointer, String hook, List<Breach> breaches) {
        if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                if (node.get(i).isNull()) {
                    breaches.add(new Breach("null", hook + " " + pointer + "/" + i + " is a null list item"));
                }
                nullItems(node.get(i), pointer + "/" + i, hook, breaches);
            }
        } else if (node.isObject()) {
            for (Map.Entry<String, JsonNode> field : iterable(node)) {
                nullItems(field.getValue(), pointer + "/" + field.getKey(), hook, breaches);
            }
        }
    }

    private static void decimals(JsonNode node, String pointer, String hook, List<Breach> breaches) {
        if (node.isNumber() && !node.isIntegralNumber()) {
            BigDecimal value = node.decimalValue();
            if (value.signum() == 0 || value.stripTrailingZeros().scale() <= 0) {
                breaches.add(new Breach("decimal", hook + " " + (pointer.isEmpty() ? "/" : pointer) + " is " + node
                        + ", a whole number written as a decimal: it never equals the API server's integer"));
            }
        } else if (node.isContainerNode()) {
            if (node.isArray()) {
                for (int i = 0; i < node.size(); i++) {
                    decimals(node.get(i), pointer + "/" + i, hook, breaches);
                }
            } else {
                for (Map.Entry<String, JsonNode> field : iterable(node)) {
                    decimals(field.getValue(), pointer + "/" + field.getKey(), hook, breaches);
                }
            }
        }
    }

    private static Iterable<Map.Entry<String, JsonNode>> iterable(JsonNode node) {
        return node::fields;
    }
}
