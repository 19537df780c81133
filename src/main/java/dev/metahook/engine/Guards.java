package dev.metahook.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.api.ChildId;
import dev.metahook.api.Result;
import dev.metahook.wire.GroupKey;
import dev.metahook.wire.LabelSelectors;
import dev.metahook.wire.ObjectMap;
import dev.metahook.wire.ObservedObject;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The rules a response must keep before it leaves: what Metacontroller would fail on later and less
 * clearly, and what would do harm (a child deleted because nobody said so). Every broken rule is
 * listed, each naming the child.
 */
final class Guards {
    private final JsonNode controller;
    private final JsonNode parent;
    private final ObjectMap observed;
    private final ObjectMap related;
    private final String declarations;
    private final boolean checkSelector;
    private final String parentNamespace;

    /**
     * @param declarations  the controller's field declaring child types: {@code childResources} or {@code attachments}
     * @param checkSelector whether children must match the parent's selector (CompositeController only)
     */
    Guards(JsonNode controller, JsonNode parent, ObjectMap observed, ObjectMap related, String declarations, boolean checkSelector) {
        this.controller = controller;
        this.parent = parent;
        this.observed = observed;
        this.related = related;
        this.declarations = declarations;
        this.checkSelector = checkSelector;
        String namespace = parent.path("metadata").path("namespace").asText("");
        this.parentNamespace = namespace.isEmpty() ? null : namespace;
    }

    void check(List<ObjectNode> desired, Result<?> result) {
        List<String> violations = new ArrayList<>();
        Set<ChildId> desiredIds = new HashSet<>();
        Set<ChildId> relatedIds = ids(related);
        relatedIds.removeAll(ids(observed));
        for (int i = 0; i < desired.size(); i++) {
            ObjectNode child = desired.get(i);
            String name = describe(child, i);
            List<String> identity = identity(child, name);
            violations.addAll(identity);
            if (!identity.isEmpty()) {
                continue;
            }
            declared(child, name, violations);
            namespace(child, name, violations);
            serverManaged(child, name, violations);
            selector(child, name, violations);
            ChildId id = DesiredChildren.id(child, parentNamespace);
            if (!desiredIds.add(id)) {
                violations.add(name + ": appears twice in the response");
            }
            if (relatedIds.contains(id)) {
                violations.add(name + ": is a related object, which the hook may read but never write");
            }
        }
        if ("childResources".equals(declarations) && (!result.labels().isEmpty() || !result.annotations().isEmpty())) {
            violations.add("the result sets labels or annotations, which only a DecoratorController can answer"
                    + " (a CompositeController's response has no such fields: Metacontroller would drop them)");
        }
        omitted(desiredIds, result, violations);
        if (!violations.isEmpty()) {
            throw new GuardViolation(violations);
        }
    }

    private List<String> identity(ObjectNode child, String name) {
        List<String> violations = new ArrayList<>();
        for (String field : List.of("apiVersion", "kind")) {
            if (!child.path(field).isTextual() || child.path(field).textValue().isEmpty()) {
                violations.add(name + ": has no " + field);
            }
        }
        if (!child.path("metadata").path("name").isTextual() || child.path("metadata").path("name").textValue().isEmpty()) {
            violations.add(name + ": has no metadata.name");
        }
        return violations;
    }

    private void declared(ObjectNode child, String name, List<String> violations) {
        GroupKey key = new GroupKey(child.path("kind").asText(), child.path("apiVersion").asText());
        if (observed.groupKeys().contains(key)) {
            return;
        }
        String plural = GroupKey.guessResource(key.kind());
        for (JsonNode declaration : controller.path("spec").path(declarations)) {
            if (key.apiVersion().equals(declaration.path("apiVersion").asText())
                    && plural.equals(declaration.path("resource").asText())) {
                return;
            }
        }
        violations.add(name + ": " + key + " is not declared in the controller's spec." + declarations
                + " (Metacontroller would create it but never observe, update or delete it)");
    }

    private void namespace(ObjectNode child, String name, List<String> violations) {
        String namespace = child.path("metadata").path("namespace").asText("");
        if (parentNamespace != null && !namespace.isEmpty() && !namespace.equals(parentNamespace)) {
            violations.add(name + ": is in namespace " + namespace + " but the parent is in " + parentNamespace
                    + " (owner references cannot cross namespaces)");
        }
    }

    private void serverManaged(ObjectNode child, String name, List<String> violations) {
        if (child.has("status")) {
            violations.add(name + ": sets status, which the API server manages (Metacontroller reverts it)");
        }
        JsonNode metadata = child.path("metadata");
        for (String field : LastApplied.SERVER_METADATA) {
            if (metadata.has(field)) {
                violations.add(name + ": sets metadata." + field + ", which the API server manages");
            }
        }
    }

    private void selector(ObjectNode child, String name, List<String> violations) {
        if (!checkSelector) {
            return;
        }
        JsonNode labels = child.path("metadata").path("labels");
        if (controller.path("spec").path("generateSelector").asBoolean(false)) {
            JsonNode uid = labels.path("controller-uid");
            String parentUid = parent.path("metadata").path("uid").asText("");
            if (uid.isTextual() && !parentUid.isEmpty() && !uid.textValue().equals(parentUid)) {
                violations.add(name + ": label controller-uid is " + uid.textValue() + ", not the parent's uid " + parentUid);
            }
            return;
        }
        JsonNode selector = parent.path("spec").path("selector");
        if (!selector.isObject() || LabelSelectors.isEmpty(selector)) {
            violations.add(name + ": the parent has no spec.selector and the controller has no generateSelector,"
                    + " so Metacontroller cannot match any child");
        } else if (!LabelSelectors.matches(selector, labels)) {
            violations.add(name + ": labels " + labels + " do not match the parent's spec.selector " + selector
                    + " (Metacontroller would abort the whole sync)");
        }
    }

    /** The identities of every object of a map, each in its own namespace (the parent's for a v1 key). */
    private Set<ChildId> ids(ObjectMap objects) {
        Set<ChildId> ids = new HashSet<>();
        objects.entries().forEach(object -> ids.add(id(object)));
        return ids;
    }

    private ChildId id(ObservedObject object) {
        return new ChildId(object.group().apiVersion(), object.group().kind(), object.namespaceOr(parentNamespace), object.name());
    }

    private void omitted(Set<ChildId> desiredIds, Result<?> result, List<String> violations) {
        Set<ChildId> deletions = new HashSet<>();
        result.deletions().forEach(id -> deletions.add(id.inNamespace(parentNamespace)));
        for (ObservedObject child : observed.entries()) {
            ChildId id = id(child);
            boolean desired = desiredIds.contains(id);
            if (desired && deletions.contains(id)) {
                violations.add("observed child " + id + ": is both in the response and marked for deletion");
            } else if (!desired && !deletions.contains(id) && !result.deletesUnlisted()) {
                violations.add("observed child " + id + ": is left out of the response, so Metacontroller would delete it,"
                        + " but the result does not say it goes (return it, or name it in deleting(...) or deletingUnlisted())");
            }
        }
    }

    private static String describe(ObjectNode child, int index) {
        String kind = child.path("kind").asText("");
        String name = child.path("metadata").path("name").asText("");
        if (kind.isEmpty() || name.isEmpty()) {
            return "child #" + index + (kind.isEmpty() ? "" : " (" + kind + ")") + (name.isEmpty() ? "" : " (" + name + ")");
        }
        return "child " + kind + " " + name;
    }
}
