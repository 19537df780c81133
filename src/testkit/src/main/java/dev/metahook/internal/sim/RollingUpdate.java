package dev.metahook.internal.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.internal.wire.Json;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Metacontroller's rolling update over a parent's revisions (the latest first): claims reconciled, the
 * latest revision given every child no revision claims and every child its answer would leave as
 * it is, then at most one child moved to the latest revision per sync, in the order of the latest
 * answer, and only while every child already on it is there, updated and passes its kind's status
 * checks ({@code RollingInPlace}: its {@code observedGeneration} caught up first). The outcome is the
 * {@code Updated} condition: {@code RolloutWaiting}, {@code RolloutProgressing} or
 * {@code OnLatestRevision}. From Metacontroller v4.10.3 on, the observed children are looked up by bare name in a map
 * keyed by {@code namespace/name}, so a namespaced child is never found there
 * ({@link MetacontrollerVersion#stallsNamespacedRollouts()}).
 */
final class RollingUpdate {

    /** One child type's update strategy. */
    record Strategy(String method, JsonNode statusChecks) {
        boolean rolling() {
            return method.equals("RollingRecreate") || method.equals("RollingInPlace");
        }
    }

    /** A revision with the parent it stands for, the hook's answer for that parent and the children it asked for. */
    record Revisioned(ControllerRevisions.Revision revision, ObjectNode parent, CompositeSimulator.HookCall call, List<ObjectNode> desired) {
        ObjectNode find(String key, String name) {
            for (ObjectNode child : desired) {
                if (key(child).equals(key) && name(child).equals(name)) {
                    return child;
                }
            }
            return null;
        }
    }

    private final Map<String, Strategy> strategies;
    private final boolean namespacedUnfound;

    /** {@code namespacedUnfound}: the lookup of an observed child misses every namespaced one, as v4.10.3 and later's does. */
    RollingUpdate(Map<String, Strategy> strategies, boolean namespacedUnfound) {
        this.strategies = strategies;
        this.namespacedUnfound = namespacedUnfound;
    }

    /** The strategies by {@code Kind.group} of the child types whose kind is known. */
    static Map<String, Strategy> strategies(ControllerSpec spec, ResourceKinds kinds) {
        Map<String, Strategy> strategies = new HashMap<>();
        for (JsonNode child : spec.manifest().path("spec").path("childResources")) {
            String apiVersion = child.path("apiVersion").asText();
            String kind = kinds.kind(apiVersion, child.path("resource").asText());
            if (kind != null) {
                JsonNode strategy = child.path("updateStrategy");
                strategies.put(kind + "." + ControllerRevisions.group(apiVersion),
                        new Strategy(strategy.path("method").asText("OnDelete"), strategy.path("statusChecks")));
            }
        }
        return strategies;
    }

    static boolean anyRolling(ControllerSpec spec) {
        for (JsonNode child : spec.manifest().path("spec").path("childResources")) {
            String method = child.path("updateStrategy").path("method").asText("");
            if (method.equals("RollingRecreate") || method.equals("RollingInPlace")) {
                return true;
            }
        }
        return false;
    }

    /** Moves claims for this sync and returns the {@code Updated} condition to write into the parent's status. */
    ObjectNode roll(List<Revisioned> revisions, List<ObjectNode> observed) {
        Revisioned latest = revisions.get(0);
        Map<String, Map<String, Revisioned>> claimed = syncClaims(revisions);
        for (ObjectNode child : latest.desired()) {
            String key = key(child);
            if (!rolling(key)) {
                continue;
            }
            Map<String, Revisioned> claims = claimed.computeIfAbsent(key, k -> new HashMap<>());
            Revisioned owner = claims.get(name(child));
            if (owner == null) {
                latest.revision().add(group(child), child.path("kind").asText(), name(child));
                claims.put(name(child), latest);
            } else if (owner != latest) {
                ObjectNode current = find(observed, key, name(child));
                if (current != null && Apply.merged(current, child).equals(current)) {
                    latest.revision().add(group(child), child.path("kind").asText(), name(child));
                    owner.revision().remove(key, name(child));
                    claims.put(name(child), latest);
                }
            }
        }
        for (ObjectNode child : latest.desired()) {
            String key = key(child);
            if (!rolling(key) || claimed.get(key).get(name(child)) == latest) {
                continue;
            }
            String waiting = waitingFor(latest, observed);
            if (waiting != null) {
                return condition("False", "RolloutWaiting", waiting);
            }
            latest.revision().add(group(child), child.path("kind").asText(), name(child));
            revisions.subList(1, revisions.size()).forEach(other -> other.revision().remove(key, name(child)));
            return condition("False", "RolloutProgressing", "updating " + child.path("kind").asText() + " " + name(child));
        }
        return condition("True", "OnLatestRevision", "latest ControllerRevision: " + latest.revision().name());
    }

    /** The children to manage: the latest answer's, but those other revisions still claim, as those revisions asked for them. */
    static List<ObjectNode> desired(List<Revisioned> revisions) {
        Map<String, ObjectNode> byKey = new LinkedHashMap<>();
        revisions.get(0).desired().forEach(child -> byKey.put(key(child) + "/" + name(child), child));
        for (Revisioned other : revisions.subList(1, revisions.size())) {
            for (ControllerRevisions.Claim claim : other.revision().claims.values()) {
                for (String name : claim.names) {
                    ObjectNode child = other.find(claim.key(), name);
                    if (child != null) {
                        byKey.put(claim.key() + "/" + name, child);
                    }
                }
            }
        }
        return new ArrayList<>(byKey.values());
    }

    /** The Updated condition set into a status as Metacontroller sets it: the condition of that type replaced, or appended. */
    static ObjectNode withCondition(JsonNode status, ObjectNode condition) {
        ObjectNode written = status != null && status.isObject() ? status.deepCopy() : Json.object();
        JsonNode conditions = written.get("conditions");
        if (conditions != null && !conditions.isArray() && !conditions.isNull()) {
            throw new IllegalArgumentException(".conditions accessor error: " + conditions + " is of the type "
                    + conditions.getNodeType().name().toLowerCase() + ", expected []interface{}");
        }
        ArrayNode list = conditions instanceof ArrayNode array ? array : written.putArray("conditions");
        for (int i = 0; i < list.size(); i++) {
            if (condition.path("type").asText().equals(list.get(i).path("type").asText(null))) {
                list.set(i, condition);
                return written;
            }
        }
        list.add(condition);
        return written;
    }

    /**
     * Keeps, for each revision (latest first), the claims of rolling kinds on children the latest
     * answer still asks for and no earlier revision claims; returns who claims what.
     */
    private Map<String, Map<String, Revisioned>> syncClaims(List<Revisioned> revisions) {
        Map<String, Map<String, Revisioned>> claimed = new HashMap<>();
        Revisioned latest = revisions.get(0);
        for (Revisioned revision : revisions) {
            revision.revision().claims.entrySet().removeIf(entry -> !rolling(entry.getKey()));
            for (ControllerRevisions.Claim claim : revision.revision().claims.values()) {
                Map<String, Revisioned> claims = claimed.computeIfAbsent(claim.key(), k -> new HashMap<>());
                claim.names.removeIf(name -> latest.find(claim.key(), name) == null || claims.containsKey(name));
                claim.names.forEach(name -> claims.put(name, revision));
            }
            revision.revision().claims.values().removeIf(claim -> claim.names.isEmpty());
        }
        return claimed;
    }

    /** Why the rollout may not go on, or null: every child on the latest revision must be there, updated and happy. */
    private String waitingFor(Revisioned latest, List<ObjectNode> observed) {
        for (ControllerRevisions.Claim claim : latest.revision().claims.values()) {
            Strategy strategy = strategies.get(claim.key());
            if (strategy == null || !strategy.rolling()) {
                continue;
            }
            for (String name : claim.names) {
                String child = claim.kind + " " + name;
                ObjectNode current = find(observed, claim.key(), name);
                if (current == null) {
                    return "missing child " + child;
                }
                if (!Apply.merged(current, latest.find(claim.key(), name)).equals(current)) {
                    return "child " + child + " is not updated yet";
                }
                long observedGeneration = current.path("status").path("observedGeneration").asLong(0);
                if (strategy.method().equals("RollingInPlace") && observedGeneration > 0
                        && observedGeneration < current.path("metadata").path("generation").asLong(0)) {
                    return "child " + child + " with RollingInPlace update strategy hasn't observed latest spec";
                }
                String failed = statusCheck(strategy.statusChecks(), current);
                if (failed != null) {
                    return "child " + child + " failed status check: " + failed;
                }
            }
        }
        return null;
    }

    /** The registration's status checks: each condition present, with the status and reason asked for. */
    static String statusCheck(JsonNode checks, JsonNode child) {
        for (JsonNode check : checks.path("conditions")) {
            String type = check.path("type").asText();
            JsonNode condition = null;
            for (JsonNode candidate : child.path("status").path("conditions")) {
                if (type.equals(candidate.path("type").asText(null))) {
                    condition = candidate;
                    break;
                }
            }
            if (condition == null) {
                return "required condition type missing: " + quote(type);
            }
            for (String field : new String[] {"status", "reason"}) {
                if (check.hasNonNull(field) && !check.get(field).asText().equals(condition.path(field).asText(""))) {
                    return quote(type) + " condition " + field + " is " + quote(condition.path(field).asText(""))
                            + " (want " + quote(check.get(field).asText()) + ")";
                }
            }
        }
        return null;
    }

    private boolean rolling(String key) {
        Strategy strategy = strategies.get(key);
        return strategy != null && strategy.rolling();
    }

    private ObjectNode find(List<ObjectNode> observed, String key, String name) {
        for (ObjectNode child : observed) {
            boolean unfound = namespacedUnfound && !child.path("metadata").path("namespace").asText("").isEmpty();
            if (!unfound && key(child).equals(key) && name(child).equals(name)) {
                return child;
            }
        }
        return null;
    }

    private static ObjectNode condition(String status, String reason, String message) {
        return Json.object().put("type", "Updated").put("status", status).put("reason", reason).put("message", message);
    }

    static String key(JsonNode child) {
        return child.path("kind").asText() + "." + group(child);
    }

    private static String group(JsonNode child) {
        return ControllerRevisions.group(child.path("apiVersion").asText());
    }

    private static String name(JsonNode child) {
        return child.path("metadata").path("name").asText();
    }

    /** A string as Go's %q writes it. */
    private static String quote(String text) {
        return '"' + text.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }
}
