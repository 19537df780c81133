package dev.metahook.internal.contract;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahook.api.ChildId;
import dev.metahook.internal.wire.GroupKey;
import dev.metahook.internal.wire.LabelSelectors;
import dev.metahook.internal.wire.ResponseCheck;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * The rules of Metacontroller's contract over one answer, each written once and named by the
 * {@link Breach} it gives. The server refuses an answer that breaks a rule it can break; {@code check}
 * reports every rule an answer breaks. A few rules only one side can see: an answer the server writes
 * has whole numbers as integers, the four known fields and never {@code finalized} in sync, so
 * {@link #decimals}, {@link #unknownFields} and {@link #finalizedInSync} are {@code check}'s; only the
 * server knows what the controller meant to delete, so {@link #omitted} is the server's.
 */
public final class AnswerRules {
    /** Metadata the API server owns; a hook never sends it (Metacontroller reverts it, or worse). */
    public static final List<String> SERVER_METADATA = List.of("uid", "resourceVersion", "generation", "creationTimestamp",
            "deletionTimestamp", "deletionGracePeriodSeconds", "managedFields", "selfLink", "ownerReferences");

    private AnswerRules() {
    }

    /**
     * What the rules need to know of the call besides the answer: the controller object, the object
     * that owns the children (a parent, or a decorator's target), whether it is a decorator, the group
     * keys of the observed map (every declared type), and the related objects sent that are not observed.
     */
    public record Owner(JsonNode controller, JsonNode object, boolean decorator, Set<String> observedGroups, Set<ChildId> related) {
        public String namespace() {
            return object.path("metadata").path("namespace").asText("");
        }

        String declarations() {
            return decorator ? "attachments" : "childResources";
        }

        String word() {
            return decorator ? "attachment" : "child";
        }
    }

    /** Every rule the desired children (or attachments) break, in their order. */
    public static List<Breach> children(List<? extends JsonNode> children, Owner owner) {
        List<Breach> breaches = new ArrayList<>();
        children(children, owner, (child, breach) -> breaches.add(breach));
        return breaches;
    }

    /** The same, each breach handed over with the child it is about (a null child as it was answered). */
    public static void children(List<? extends JsonNode> children, Owner owner, BiConsumer<JsonNode, Breach> found) {
        Set<ChildId> ids = new HashSet<>();
        for (int i = 0; i < children.size(); i++) {
            JsonNode child = children.get(i);
            List<Breach> breaches = new ArrayList<>();
            check(child, describe(child, i, owner), owner, ids, breaches);
            breaches.forEach(breach -> found.accept(child, breach));
        }
    }

    private static void check(JsonNode child, String what, Owner owner, Set<ChildId> ids, List<Breach> breaches) {
        if (child == null || child.isNull()) {
            breaches.add(new Breach("null-value", what + " is null: Metacontroller crashes on it"));
            return;
        }
        if (!child.isObject() || !identity(child, what, breaches)) {
            return;
        }
        nulls(child, what, owner, breaches);
        declared(child, what, owner, breaches);
        namespace(child, what, owner, breaches);
        serverFields(child, what, breaches);
        if (!owner.decorator()) {
            selector(child, what, owner, breaches);
        }
        ChildId id = id(child, owner.namespace());
        if (!ids.add(id)) {
            breaches.add(new Breach("duplicate", what + ": appears twice in the response (Metacontroller keeps one of them)"));
        }
        if (owner.related().contains(id)) {
            breaches.add(new Breach("writes-related", what + ": is a related object, which the hook may read but never write"));
        }
    }

    /** The identity of a desired object, in the owner's namespace when it names none. */
    public static ChildId id(JsonNode child, String ownerNamespace) {
        JsonNode metadata = child.path("metadata");
        String namespace = metadata.path("namespace").asText("");
        return new ChildId(child.path("apiVersion").asText(""), child.path("kind").asText(""),
                namespace.isEmpty() ? ownerNamespace : namespace, metadata.path("name").asText(""));
    }

    /** apiVersion, kind and name: without them Metacontroller cannot decode, key or create the object. */
    private static boolean identity(JsonNode child, String what, List<Breach> breaches) {
        int before = breaches.size();
        for (String field : List.of("apiVersion", "kind")) {
            if (!child.path(field).isTextual() || child.path(field).textValue().isEmpty()) {
                breaches.add(new Breach("missing-" + field, what + ": has no " + field));
            }
        }
        JsonNode name = child.path("metadata").path("name");
        if (!name.isTextual() || name.textValue().isEmpty()) {
            breaches.add(new Breach("missing-name", what + ": has no metadata.name (the API server refuses to create it,"
                    + " and an observed object it stands for is deleted)"));
        }
        return breaches.size() == before;
    }

    /** Nulls where Go zero values land (the object's own fields and its metadata), and null list items anywhere in it. */
    private static void nulls(JsonNode child, String what, Owner owner, List<Breach> breaches) {
        for (Map.Entry<String, JsonNode> field : fields(child)) {
            if (field.getValue().isNull()) {
                breaches.add(new Breach("null-value", what + ": /" + field.getKey() + " is null"));
            }
        }
        for (Map.Entry<String, JsonNode> field : fields(child.path("metadata"))) {
            if (field.getValue().isNull()) {
                breaches.add(new Breach("null-value", what + ": /metadata/" + field.getKey() + " is null" + consequence(field.getKey(), owner)));
            }
        }
        if (hasNullItem(child)) {
            nullItems(child, "", what, breaches);
        }
    }

    /** What Metacontroller does with a null labels or annotations map of a desired object. */
    private static String consequence(String field, Owner owner) {
        return switch (field) {
            case "labels" -> owner.decorator()
                    ? ": Metacontroller applies the attachment without the labels, and as what it stores never equals the answer,"
                    + " it updates the attachment on every sync"
                    : ": Metacontroller fails the whole sync (invalid labels on desired child) and applies no child";
            case "annotations" -> ": Metacontroller replaces it with its own annotations (the last-applied one)";
            default -> "";
        };
    }

    /** Whether a list below the node holds a null: looked for before any pointer is built, as almost no answer has one. */
    private static boolean hasNullItem(JsonNode node) {
        if (node.isArray()) {
            for (JsonNode item : node) {
                if (item.isNull() || hasNullItem(item)) {
                    return true;
                }
            }
        } else if (node.isObject()) {
            for (Map.Entry<String, JsonNode> field : fields(node)) {
                if (hasNullItem(field.getValue())) {
                    return true;
                }
            }
        }
        return false;
    }

    private static void nullItems(JsonNode node, String pointer, String what, List<Breach> breaches) {
        if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                if (node.get(i).isNull()) {
                    breaches.add(new Breach("null-value", what + ": " + pointer + "/" + i + " is a null list item"));
                }
                nullItems(node.get(i), pointer + "/" + i, what, breaches);
            }
        } else if (node.isObject()) {
            for (Map.Entry<String, JsonNode> field : fields(node)) {
                nullItems(field.getValue(), pointer + "/" + field.getKey(), what, breaches);
            }
        }
    }

    /** A type the controller does not declare is created on every sync and never observed, updated or deleted. */
    private static void declared(JsonNode child, String what, Owner owner, List<Breach> breaches) {
        GroupKey key = new GroupKey(child.path("kind").asText(), child.path("apiVersion").asText());
        if (owner.observedGroups().contains(key.toString())) {
            return;
        }
        String plural = GroupKey.guessResource(key.kind());
        for (JsonNode declaration : owner.controller().path("spec").path(owner.declarations())) {
            if (key.apiVersion().equals(declaration.path("apiVersion").asText()) && plural.equals(declaration.path("resource").asText())) {
                return;
            }
        }
        breaches.add(new Breach("undeclared", what + ": " + key + " is not declared in the controller's spec." + owner.declarations()
                + " (Metacontroller would create it but never observe, update or delete it)"));
    }

    private static void namespace(JsonNode child, String what, Owner owner, List<Breach> breaches) {
        String namespace = child.path("metadata").path("namespace").asText("");
        if (!owner.namespace().isEmpty() && !namespace.isEmpty() && !namespace.equals(owner.namespace())) {
            breaches.add(new Breach("namespace", what + ": is in namespace " + namespace + " but the parent is in " + owner.namespace()
                    + " (owner references cannot cross namespaces)"));
        }
    }

    /** The way out, said once per child: an observed child returned as read carries every server field. */
    static final String START_FROM_LAST_APPLIED = " (to keep an observed child as it is, return"
            + " context.children().lastApplied(Type.class, name), which leaves these fields out, instead of the child as read)";

    private static void serverFields(JsonNode child, String what, List<Breach> breaches) {
        List<String> fields = new ArrayList<>();
        if (child.has("status")) {
            fields.add("status, which the API server manages (Metacontroller reverts it)");
        }
        JsonNode metadata = child.path("metadata");
        for (String field : SERVER_METADATA) {
            if (metadata.has(field)) {
                fields.add("metadata." + field + ", which the API server manages");
            }
        }
        for (int i = 0; i < fields.size(); i++) {
            breaches.add(new Breach("server-field", what + ": sets " + fields.get(i) + (i == 0 ? START_FROM_LAST_APPLIED : "")));
        }
    }

    /**
     * A CompositeController's child must match the parent's selector, or Metacontroller aborts the whole
     * sync. With {@code generateSelector} the selector is {@code controller-uid=<parent uid>}, and a
     * child without that label gets it. Without, a parent with no usable {@code spec.selector} (absent,
     * not an object, or empty) fails every sync; a child answered for it is a breach, as no child can match.
     */
    private static void selector(JsonNode child, String what, Owner owner, List<Breach> breaches) {
        JsonNode labels = child.path("metadata").path("labels");
        JsonNode parent = owner.object();
        if (owner.controller().path("spec").path("generateSelector").asBoolean(false)) {
            JsonNode uid = labels.path("controller-uid");
            String parentUid = parent.path("metadata").path("uid").asText("");
            if (!uid.isMissingNode() && !uid.asText().equals(parentUid)) {
                breaches.add(new Breach("selector", what + ": label controller-uid is " + uid.asText() + ", not the parent's uid "
                        + parentUid + " (Metacontroller would abort the whole sync)"));
            }
            return;
        }
        JsonNode selector = parent.path("spec").path("selector");
        if (!selector.isObject() || LabelSelectors.isEmpty(selector)) {
            breaches.add(new Breach("selector", what + ": the parent has no spec.selector and the controller has no generateSelector,"
                    + " so Metacontroller cannot match any child"));
        } else if (!LabelSelectors.matches(selector, labels)) {
            breaches.add(new Breach("selector", what + ": labels " + labels + " do not match the parent's spec.selector " + selector
                    + " (Metacontroller would abort the whole sync)"));
        }
    }

    /**
     * An observed object the answer leaves out is deleted: the server refuses that unless the controller
     * said the object goes ({@code deletions}, or all unlisted ones go), and refuses an object both kept and deleted.
     */
    public static List<Breach> omitted(Set<ChildId> desired, List<ChildId> observed, Set<ChildId> deletions, boolean deletesUnlisted,
                                       boolean decorator) {
        String word = decorator ? "observed attachment " : "observed child ";
        List<Breach> breaches = new ArrayList<>();
        for (ChildId id : observed) {
            boolean kept = desired.contains(id);
            if (kept && deletions.contains(id)) {
                breaches.add(new Breach("deletes-kept", word + id + ": is both in the response and marked for deletion"));
            } else if (!kept && !deletions.contains(id) && !deletesUnlisted) {
                breaches.add(new Breach("deletes-children", word + id + ": is left out of the response, so Metacontroller would delete it,"
                        + " but the result does not say it goes (return it, or name it in deleting(...) or deletingUnlisted())"));
            }
        }
        return breaches;
    }

    /** A sync or finalize answer without its list of children (or attachments) deletes every observed one. */
    public static List<Breach> missingList(JsonNode response, int observed, boolean decorator, String hook) {
        String field = decorator ? "attachments" : "children";
        if (response.path(field).isArray() || observed == 0) {
            return List.of();
        }
        return List.of(new Breach("deletes-children", hook + " answered no " + field + " list: Metacontroller would delete all "
                + observed + " observed " + field));
    }

    /** A top-level field Metacontroller does not know: loose decoding drops it (a misspelled children deletes them all). */
    public static List<Breach> unknownFields(JsonNode response, boolean decorator, String hook) {
        Set<String> known = ResponseCheck.fields(decorator);
        List<Breach> breaches = new ArrayList<>();
        for (Iterator<String> it = response.fieldNames(); it.hasNext(); ) {
            String field = it.next();
            if (!known.contains(field)) {
                breaches.add(new Breach("unknown-field", hook + " answered field '" + field + "' (misspelled?): loose decoding ignores it,"
                        + " strict decoding fails the call"));
            }
        }
        return breaches;
    }

    /** Metacontroller removes the finalizer whenever an answer says finalized, and a sync's would be added back. */
    public static List<Breach> finalizedInSync(JsonNode response, boolean finalizing, String hook) {
        if (response.path("finalized").asBoolean(false) && !finalizing) {
            return List.of(new Breach("finalized-in-sync", hook + " answered finalized: true: the finalizer would be removed and added back"));
        }
        return List.of();
    }

    /** Whole numbers written as decimals ({@code 3.0}) never deep-equal the API server's integers. */
    public static List<Breach> decimals(JsonNode response, String hook) {
        List<Breach> breaches = new ArrayList<>();
        decimals(response, "", hook, breaches);
        return breaches;
    }

    private static void decimals(JsonNode node, String pointer, String hook, List<Breach> breaches) {
        if (node.isNumber() && !node.isIntegralNumber()) {
            BigDecimal value = node.decimalValue();
            if (value.signum() == 0 || value.stripTrailingZeros().scale() <= 0) {
                breaches.add(new Breach("decimal", hook + " " + (pointer.isEmpty() ? "/" : pointer) + " is " + node
                        + ", a whole number written as a decimal: it never equals the API server's integer"));
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                decimals(node.get(i), pointer + "/" + i, hook, breaches);
            }
        } else if (node.isObject()) {
            for (Map.Entry<String, JsonNode> field : fields(node)) {
                decimals(field.getValue(), pointer + "/" + field.getKey(), hook, breaches);
            }
        }
    }

    /**
     * The rules a customize answer's related rule must keep, or Metacontroller fails the sync: names
     * (when any) exclude labelSelector and namespaceSelector, namespace excludes namespaceSelector, and
     * a v1 customize hook of a namespaced parent may use neither a namespaceSelector nor another namespace.
     */
    public static List<Breach> relatedRule(JsonNode rule, int index, String parentNamespace, boolean v1) {
        String at = "/relatedResources/" + index + ": ";
        List<Breach> breaches = new ArrayList<>();
        if (rule.path("names").size() > 0 && (rule.hasNonNull("labelSelector") || rule.hasNonNull("namespaceSelector"))) {
            breaches.add(new Breach("related-rule", at + "names cannot be combined with labelSelector or namespaceSelector"));
        }
        if (!rule.path("namespace").asText("").isEmpty() && rule.hasNonNull("namespaceSelector")) {
            breaches.add(new Breach("related-rule", at + "namespace cannot be combined with namespaceSelector"));
        }
        if (!parentNamespace.isEmpty() && v1) {
            if (rule.hasNonNull("namespaceSelector")) {
                breaches.add(new Breach("related-rule", at + "namespaceSelector is not supported for namespaced parent in v1 hook version"));
            }
            String namespace = rule.path("namespace").asText("");
            if (!namespace.isEmpty() && !namespace.equals("*") && !namespace.equals(parentNamespace)) {
                breaches.add(new Breach("related-rule", at + "requested related object namespace " + namespace
                        + " differs from parent object namespace " + parentNamespace));
            }
        }
        return breaches;
    }

    private static String describe(JsonNode child, int index, Owner owner) {
        String kind = child == null ? "" : child.path("kind").asText("");
        String name = child == null ? "" : child.path("metadata").path("name").asText("");
        if (kind.isEmpty() || name.isEmpty()) {
            return owner.word() + " #" + index + (kind.isEmpty() ? "" : " (" + kind + ")") + (name.isEmpty() ? "" : " (" + name + ")");
        }
        return owner.word() + " " + kind + " " + name;
    }

    private static Iterable<Map.Entry<String, JsonNode>> fields(JsonNode node) {
        return () -> node.properties().iterator();
    }
}
