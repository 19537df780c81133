package dev.metahook.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.wire.CanonicalJson;
import dev.metahook.wire.DecoratorRequest;
import dev.metahook.wire.HookVersion;
import dev.metahook.wire.Json;
import dev.metahook.wire.ObjectMap;
import dev.metahook.wire.ResponseCheck;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Metacontroller's pass for a DecoratorController target: its attachments (owned by the target and
 * annotated with the decorator's name), the hook call, then labels and annotations merged into the
 * target (a null deletes), its status replaced only when the answer has one, attachments applied.
 */
public final class DecoratorSimulator {
    static final String DECORATOR_ANNOTATION = "metacontroller.k8s.io/decorator-controller";

    private final ControllerSpec spec;
    private final Cluster store;
    private final HookClient hooks;
    private final ResourceKinds kinds = new ResourceKinds();
    private final Apply apply;

    public DecoratorSimulator(ControllerSpec spec, Cluster store, HookClient hooks) {
        if (!spec.decorator()) {
            throw new IllegalArgumentException(spec.name() + " is not a DecoratorController");
        }
        this.spec = spec;
        this.store = store;
        this.hooks = hooks;
        this.apply = new Apply(store, spec);
    }

    /** One pass for the target; a failed call changes nothing. */
    public CompositeSimulator.Pass sync(ObjectRef targetRef) {
        Optional<ObjectNode> found = store.get(targetRef);
        if (found.isEmpty()) {
            return new CompositeSimulator.Pass(CompositeSimulator.Outcome.PARENT_GONE, null, null, null, false, null);
        }
        ObjectNode target = found.get();
        boolean deleting = target.path("metadata").hasNonNull("deletionTimestamp");
        if (spec.hasFinalize() && !deleting) {
            store.addFinalizer(targetRef, spec.finalizer());
            target = store.get(targetRef).orElseThrow();
        }
        boolean finalizing = spec.hasFinalize() && deleting;
        String hook = finalizing ? "finalize" : "sync";
        HookVersion version = spec.hooks().get(hook).version();
        List<ObjectNode> attachments = attachments(target);
        ObjectNode request = new DecoratorRequest(spec.manifest(), target,
                ObjectMap.of(attachments, kinds.declaredGroups(spec), version, target.path("metadata").hasNonNull("namespace")),
                ObjectMap.empty(), finalizing).toJson();
        HookClient.Reply reply = hooks.call(hook, CanonicalJson.bytes(request));
        CompositeSimulator.HookCall call = call(hook, request, reply);
        if (reply.status() == 429) {
            return new CompositeSimulator.Pass(CompositeSimulator.Outcome.RETRY_LATER, call,
                    CompositeSimulator.retryAfter(reply.header("Retry-After")), null, false, null);
        }
        if (!call.succeeded()) {
            return new CompositeSimulator.Pass(CompositeSimulator.Outcome.FAILED, call, null, null, false, "the hook failed");
        }
        return applyAnswer(targetRef, target, attachments, call);
    }

    private CompositeSimulator.Pass applyAnswer(ObjectRef targetRef, ObjectNode target, List<ObjectNode> attachments,
                                                CompositeSimulator.HookCall call) {
        JsonNode response = call.response();
        boolean finalized = response.path("finalized").asBoolean(false);
        ObjectNode updated = target.deepCopy();
        mergeMap(updated.with("metadata"), "labels", response.path("labels"));
        mergeMap(updated.with("metadata"), "annotations", response.path("annotations"));
        store.update(updated);
        if (response.hasNonNull("status")) {
            store.setStatus(targetRef, response.get("status"));
        }
        if (finalized) {
            store.removeFinalizer(targetRef, spec.finalizer());
        }
        List<ObjectNode> desired = new ArrayList<>();
        String namespace = target.path("metadata").path("namespace").asText("");
        for (JsonNode attachment : response.path("attachments")) {
            ObjectNode copy = attachment.deepCopy();
            kinds.learn(copy);
            if (!copy.with("metadata").hasNonNull("namespace") && !namespace.isEmpty()) {
                copy.with("metadata").put("namespace", namespace);
            }
            copy.with("metadata").with("annotations").put(DECORATOR_ANNOTATION, spec.name());
            desired.add(copy);
        }
        List<ChildUpdate> updates = store.get(targetRef).isPresent() ? apply.manage(target, attachments, desired) : List.of();
        return new CompositeSimulator.Pass(CompositeSimulator.Outcome.APPLIED, call, null, null, finalized, null, updates);
    }

    private List<ObjectNode> attachments(ObjectNode target) {
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


    private CompositeSimulator.HookCall call(String hook, ObjectNode request, HookClient.Reply reply) {
        if (reply.status() != 200) {
            return new CompositeSimulator.HookCall(hook, request, reply, null, List.of());
        }
        try {
            JsonNode response = Json.parse(reply.body());
            return new CompositeSimulator.HookCall(hook, request, reply, response,
                    ResponseCheck.decorator(response, spec.hooks().get(hook).strict()));
        } catch (RuntimeException e) {
            return new CompositeSimulator.HookCall(hook, request, reply, null, List.of("the response is not JSON: " + e.getMessage()));
        }
    }

    /** Labels or annotations merged key by key; a null value deletes the key. */
    private static void mergeMap(ObjectNode metadata, String field, JsonNode changes) {
        if (!changes.isObject() || changes.isEmpty()) {
            return;
        }
        ObjectNode map = metadata.with(field);
        changes.fields().forEachRemaining(change -> {
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
