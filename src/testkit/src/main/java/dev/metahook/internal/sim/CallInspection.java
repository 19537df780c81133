package dev.metahook.internal.sim;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahook.api.ChildId;
import dev.metahook.internal.contract.AnswerRules;
import dev.metahook.internal.contract.Breach;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * The checks one hook call can be judged by alone: its status, its time, and its answer by the rules
 * of {@link AnswerRules} (a CompositeController's children, a DecoratorController's attachments, a
 * customize hook's rules), named as the server names them when it refuses an answer.
 */
final class CallInspection {

    private CallInspection() {
    }

    /** A sync, finalize or customize call of a CompositeController or a DecoratorController. */
    static List<Breach> inspect(CompositeSimulator.HookCall call, Duration timeout) {
        List<Breach> breaches = new ArrayList<>();
        inspect(call, timeout, (child, breach) -> breaches.add(breach));
        return breaches;
    }

    /** The same, each breach with the child (attachment) it is about, or null when it is about the call as a whole. */
    static void inspect(CompositeSimulator.HookCall call, Duration timeout, BiConsumer<ChildId, Breach> found) {
        List<Breach> breaches = new ArrayList<>();
        if (!answered(call, timeout, breaches)) {
            breaches.forEach(breach -> found.accept(null, breach));
            return;
        }
        Map<Breach, ChildId> about = new LinkedHashMap<>();
        if (call.hook().equals("customize")) {
            breaches.addAll(call.refusals());
        } else {
            answer(call, breaches, about);
        }
        if (breaches.isEmpty()) {
            call.problems().forEach(problem -> breaches.add(new Breach("malformed", call.hook() + ": " + problem)));
        }
        breaches.forEach(breach -> found.accept(about.get(breach), breach));
    }

    /** The transport checks; true when there is a decoded 200 answer to look into. */
    private static boolean answered(CompositeSimulator.HookCall call, Duration timeout, List<Breach> breaches) {
        if (!reply(call.hook(), call.reply(), timeout, breaches)) {
            return false;
        }
        if (call.response() == null) {
            call.problems().forEach(problem -> breaches.add(new Breach("malformed", call.hook() + ": " + problem)));
            return false;
        }
        return true;
    }

    /** A reply's transport, time and status; true when it is a 200 to decode. */
    static boolean reply(String hook, HookClient.Reply reply, Duration timeout, List<Breach> breaches) {
        if (reply.error() != null) {
            breaches.add(new Breach("no-answer", hook + ": " + reply.error()));
            return false;
        }
        if (reply.took().compareTo(timeout) > 0) {
            breaches.add(new Breach("too-slow", hook + " took " + reply.took().toMillis() + " ms, more than the "
                    + timeout.toMillis() + " ms Metacontroller waits, so Metacontroller gives up on it and applies nothing"));
        }
        if (reply.status() == 429) {
            if (reply.header("Retry-After") == null) {
                breaches.add(new Breach("status", hook + " answered 429 without Retry-After: Metacontroller retries at once"));
            }
            return false;
        }
        if (reply.status() != 200) {
            breaches.add(new Breach("status", hook + " answered " + reply.status() + ": " + Excerpt.body(reply.body())));
            return false;
        }
        return true;
    }

    private static void answer(CompositeSimulator.HookCall call, List<Breach> breaches, Map<Breach, ChildId> about) {
        JsonNode request = call.request();
        JsonNode response = call.response();
        boolean decorator = request.has("object");
        String field = decorator ? "attachments" : "children";
        breaches.addAll(AnswerRules.unknownFields(response, decorator, call.hook()));
        breaches.addAll(AnswerRules.missingList(response, request.path(field).findValues("metadata").size(), decorator, call.hook()));
        breaches.addAll(AnswerRules.finalizedInSync(response, request.path("finalizing").asBoolean(false), call.hook()));
        breaches.addAll(AnswerRules.decimals(response, call.hook()));
        List<JsonNode> answered = new ArrayList<>();
        response.path(field).forEach(answered::add);
        AnswerRules.Owner owner = owner(request, decorator);
        AnswerRules.children(answered, owner, (child, breach) -> {
            Breach named = new Breach(breach.kind(), call.hook() + " " + breach.detail());
            breaches.add(named);
            if (child != null && child.isObject() && !child.path("metadata").path("name").asText("").isEmpty()) {
                about.putIfAbsent(named, AnswerRules.id(child, owner.namespace()));
            }
        });
    }

    /** The facts the rules need, as the request carried them. */
    static AnswerRules.Owner owner(JsonNode request, boolean decorator) {
        JsonNode object = request.path(decorator ? "object" : "parent");
        String namespace = object.path("metadata").path("namespace").asText("");
        JsonNode observed = request.path(decorator ? "attachments" : "children");
        Set<String> groups = new HashSet<>();
        observed.fieldNames().forEachRemaining(groups::add);
        Set<ChildId> related = ids(request.path("related"), namespace);
        related.removeAll(ids(observed, namespace));
        return new AnswerRules.Owner(request.path("controller"), object, decorator, groups, related);
    }

    private static Set<ChildId> ids(JsonNode map, String namespace) {
        Set<ChildId> ids = new HashSet<>();
        map.forEach(group -> group.forEach(object -> ids.add(AnswerRules.id(object, namespace))));
        return ids;
    }
}
