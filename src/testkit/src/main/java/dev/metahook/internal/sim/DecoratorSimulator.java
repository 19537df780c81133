package dev.metahook.internal.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.api.ChildId;
import dev.metahook.internal.wire.DecoratorRequest;
import dev.metahook.internal.wire.HookVersion;
import dev.metahook.internal.wire.ObjectMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Metacontroller's pass for a DecoratorController target: nothing for an object its selectors do not
 * select and that has no finalizer of the decorator; else its finalizer, its attachments (owned by
 * the target and annotated with the decorator's name), customize and the related objects, the hook
 * call (finalize when the target is being deleted or no longer selected, and the decorator has a
 * finalize hook), then labels and annotations merged into the target (a null deletes), its status
 * replaced only when the answer has one (no observedGeneration added), attachments applied. A failed
 * call changes nothing.
 */
public final class DecoratorSimulator implements Simulator {
    public static final String DECORATOR_ANNOTATION = "metacontroller.k8s.io/decorator-controller";

    private final ControllerSpec spec;
    private final Cluster store;
    private final HookClient hooks;
    private final ResourceKinds kinds = new ResourceKinds();
    private final Apply apply;
    private final Customize customize;
    private final DecoratorSelector selector;

    public DecoratorSimulator(ControllerSpec spec, Cluster store, HookClient hooks) {
        if (!spec.decorator()) {
            throw new IllegalArgumentException(spec.name() + " is not a DecoratorController");
        }
        this.spec = spec;
        this.store = store;
        this.hooks = hooks;
        this.apply = new Apply(store, spec);
        this.customize = new Customize(spec, store, hooks, kinds);
        this.selector = new DecoratorSelector(spec, kinds);
    }

    /** Whether Metacontroller syncs this object at all: its selectors select it, or it still has the decorator's finalizer. */
    public boolean watches(JsonNode target) {
        return selector.matches(target) || hasFinalizer(target);
    }

    /** Whether the decorator's selectors select this object. */
    public boolean selects(JsonNode target) {
        return selector.matches(target);
    }

    /** The object changed in one label or annotation so that the selectors no longer select it, if one change can. */
    Optional<DecoratorSelector.Change> unmatched(JsonNode target) {
        return selector.unmatched(target);
    }

    /** The selectors of the target's type, in words. */
    String describeSelector(JsonNode target) {
        return selector.describe(target);
    }

    @Override
    public ControllerSpec spec() {
        return spec;
    }

    @Override
    public int childWrites() {
        return apply.writes();
    }

    @Override
    public Customize customize() {
        return customize;
    }

    /** One pass for the target; a failed call changes nothing. */
    @Override
    public CompositeSimulator.Pass sync(ChildId targetRef) {
        Optional<ObjectNode> found = store.get(targetRef);
        if (found.isEmpty()) {
            return new CompositeSimulator.Pass(CompositeSimulator.Outcome.PARENT_GONE, null, null, null, false, null);
        }
        if (!watches(found.get())) {
            return new CompositeSimulator.Pass(CompositeSimulator.Outcome.IGNORED, null, null, null, false, null);
        }
        ObjectNode target = syncFinalizer(targetRef, found.get());
        if (!watches(target)) {
            return new CompositeSimulator.Pass(CompositeSimulator.Outcome.IGNORED, null, null, null, false, null);
        }
        CompositeSimulator.HookCall call = call(target);
        if (call.reply().status() == 429) {
            return new CompositeSimulator.Pass(CompositeSimulator.Outcome.RETRY_LATER, call,
                    CompositeSimulator.retryAfter(call.reply().header("Retry-After")), null, false, null);
        }
        if (!call.succeeded()) {
            return new CompositeSimulator.Pass(CompositeSimulator.Outcome.FAILED, call, null, null, false, CompositeSimulator.failure(call));
        }
        return applyAnswer(targetRef, target, call);
    }

    /** Customize, then the sync or finalize request for the target as it is now, sent; nothing is applied. */
    @Override
    public CompositeSimulator.HookCall call(ObjectNode target) {
        boolean finalizing = spec.hasFinalize() && (target.path("metadata").hasNonNull("deletionTimestamp") || !selector.matches(target));
        String hook = finalizing ? "finalize" : "sync";
        HookVersion version = spec.hooks().get(hook).version();
        Customize.Result related = customize.related(target, version);
        if (related.failed()) {
            return related.call();
        }
        ObjectMap attachments = ObjectMap.of(attachments(target), kinds.declaredGroups(spec), version,
                target.path("metadata").hasNonNull("namespace"));
        return CompositeSimulator.HookCall.send(hooks, spec, hook,
                new DecoratorRequest(spec.manifest(), target, attachments, related.related(), finalizing).toJson());
    }

    /** The attachments Metacontroller sees: owned by the target, of a declared type, annotated with this decorator's name. */
    public List<ObjectNode> attachments(ObjectNode target) {
        List<ObjectNode> attachments = new ArrayList<>();
        for (ObjectNode child : store.ownedBy(target.path("metadata").path("uid").asText())) {
            kinds.learn(child);
            boolean ours = spec.name().equals(child.path("metadata").path("annotations").path(DECORATOR_ANNOTATION).asText());
            String apiVersion = child.path("apiVersion").asText();
            boolean declared = spec.childResources().stream().anyMatch(c -> c.apiVersion().equals(apiVersion)
                    && child.path("kind").asText().equals(kinds.kind(apiVersion, c.resource())));
            if (ours && declared) {
                attachments.add(child);
            }
        }
        return attachments;
    }

    /** The attachments of an answer as Metacontroller applies them: the target's namespace, the decorator annotation. */
    public List<ObjectNode> desiredAttachments(ObjectNode target, JsonNode answered) {
        List<ObjectNode> desired = new ArrayList<>();
        String namespace = target.path("metadata").path("namespace").asText("");
        for (JsonNode attachment : answered) {
            ObjectNode copy = attachment.deepCopy();
            kinds.learn(copy);
            if (!copy.withObjectProperty("metadata").hasNonNull("namespace") && !namespace.isEmpty()) {
                copy.withObjectProperty("metadata").put("namespace", namespace);
            }
            Apply.map(copy.withObjectProperty("metadata"), "annotations").put(DECORATOR_ANNOTATION, spec.name());
            desired.add(copy);
        }
        return desired;
    }

    /** The target as Metacontroller writes it for an answer: labels and annotations merged, status replaced when answered. */
    public static ObjectNode decorated(ObjectNode target, JsonNode response) {
        ObjectNode updated = target.deepCopy();
        mergeMap(updated.withObjectProperty("metadata"), "labels", response.path("labels"));
        mergeMap(updated.withObjectProperty("metadata"), "annotations", response.path("annotations"));
        if (response.hasNonNull("status")) {
            updated.set("status", response.get("status").deepCopy());
        }
        return updated;
    }

    private boolean hasFinalizer(JsonNode target) {
        for (JsonNode finalizer : target.path("metadata").path("finalizers")) {
            if (finalizer.asText().equals(spec.finalizer())) {
                return true;
            }
        }
        return false;
    }

    private ObjectNode syncFinalizer(ChildId targetRef, ObjectNode target) {
        boolean deleting = target.path("metadata").hasNonNull("deletionTimestamp");
        boolean has = hasFinalizer(target);
        if (spec.hasFinalize() && !deleting && !has) {
            store.addFinalizer(targetRef, spec.finalizer());
        } else if (!spec.hasFinalize() && has) {
            store.removeFinalizer(targetRef, spec.finalizer());
        }
        return store.get(targetRef).orElse(target);
    }

    private CompositeSimulator.Pass applyAnswer(ChildId targetRef, ObjectNode target, CompositeSimulator.HookCall call) {
        JsonNode response = call.response();
        boolean finalized = response.path("finalized").asBoolean(false);
        ObjectNode updated = decorated(target, response);
        updated.remove("status");
        store.update(updated);
        if (response.hasNonNull("status")) {
            store.setStatus(targetRef, response.get("status"));
        }
        if (finalized) {
            store.removeFinalizer(targetRef, spec.finalizer());
        }
        boolean manage = !target.path("metadata").hasNonNull("deletionTimestamp") || hasFinalizer(target);
        try {
            List<ChildUpdate> updates = manage && store.get(targetRef).isPresent()
                    ? apply.manage(target, attachments(target), desiredAttachments(target, response.path("attachments"))) : List.of();
            return new CompositeSimulator.Pass(CompositeSimulator.Outcome.APPLIED, call, null, null, finalized, null, updates);
        } catch (UnservedKinds unserved) {
            return new CompositeSimulator.Pass(CompositeSimulator.Outcome.FAILED, call, null, null, finalized, "can't reconcile children for "
                    + target.path("kind").asText() + " " + targetRef.namespace() + "/" + targetRef.name() + ": " + unserved.getMessage());
        }
    }

    /** Labels or annotations merged key by key; a null value deletes the key. */
    private static void mergeMap(ObjectNode metadata, String field, JsonNode changes) {
        if (!changes.isObject() || changes.isEmpty()) {
            return;
        }
        ObjectNode map = metadata.withObjectProperty(field);
        changes.properties().iterator().forEachRemaining(change -> {
            if (change.getValue().isNull()) {
                map.remove(change.getKey());
            } else {
                map.put(change.getKey(), change.getValue().asText());
            }
        });
        if (map.isEmpty()) {
            metadata.remove(field);
        }
    }
}
