package dev.metahook.internal.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.api.ChildId;
import dev.metahook.internal.contract.Breach;
import dev.metahook.internal.wire.CanonicalJson;
import dev.metahook.internal.wire.CompositeRequest;
import dev.metahook.internal.wire.HookVersion;
import dev.metahook.internal.wire.Json;
import dev.metahook.internal.wire.LabelSelectors;
import dev.metahook.internal.wire.ObjectMap;
import dev.metahook.internal.wire.ResponseCheck;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Metacontroller's sync pass for one CompositeController, against a {@link Cluster}: finalizer,
 * observed children, customize, the hook call, then the answer applied in Metacontroller's order
 * (resync, finalizer removal, selector check, children, status). A failed call changes nothing.
 */
public final class CompositeSimulator implements Simulator {

    private final ControllerSpec spec;
    private final Cluster store;
    private final HookClient hooks;
    private final ResourceKinds kinds = new ResourceKinds();
    private final Apply apply;
    private final Customize customize;
    private final ControllerRevisions revisions;
    private final boolean rolling;
    private final java.util.Set<String> pruned = new java.util.LinkedHashSet<>();
    private final MetacontrollerVersion metacontroller;

    /** The newest Metacontroller's pass. */
    public CompositeSimulator(ControllerSpec spec, Cluster store, HookClient hooks) {
        this(spec, store, hooks, MetacontrollerVersion.NEWEST);
    }

    /** The pass of {@code metacontroller}, where its releases differ. */
    public CompositeSimulator(ControllerSpec spec, Cluster store, HookClient hooks, MetacontrollerVersion metacontroller) {
        this.metacontroller = metacontroller;
        this.spec = spec;
        this.store = store;
        this.hooks = hooks;
        this.apply = new Apply(store, spec);
        this.customize = new Customize(spec, store, hooks, kinds);
        this.revisions = new ControllerRevisions(spec, store);
        this.rolling = RollingUpdate.anyRolling(spec);
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

    /**
     * How one pass ended; {@code IGNORED}: no call, the object is not one the controller syncs (a
     * decorator's target, or a composite's parent, its selectors do not select, without the controller's finalizer).
     */
    public enum Outcome { APPLIED, RETRY_LATER, FAILED, PARENT_GONE, IGNORED }

    /**
     * One hook call: the request sent, the reply, the parsed answer, what Metacontroller's decoder
     * refused in it, and the rules of the decoded answer Metacontroller then refuses (a customize rule's).
     */
    public record HookCall(String hook, ObjectNode request, HookClient.Reply reply, JsonNode response, List<String> problems,
                           List<Breach> refusals, Duration timeout) {
        public HookCall(String hook, ObjectNode request, HookClient.Reply reply, JsonNode response, List<String> problems) {
            this(hook, request, reply, response, problems, List.of(), null);
        }

        public HookCall(String hook, ObjectNode request, HookClient.Reply reply, JsonNode response, List<String> problems,
                        List<Breach> refusals) {
            this(hook, request, reply, response, problems, refusals, null);
        }

        /** Whether the answer came after the hook's timeout: Metacontroller's client had given up on it. */
        public boolean late() {
            return timeout != null && reply.error() == null && reply.took().compareTo(timeout) > 0;
        }

        public boolean succeeded() {
            return !late() && reply.status() == 200 && response != null && problems.isEmpty() && refusals.isEmpty();
        }

        /** The same call, judged against {@code timeout}. */
        HookCall within(Duration limit) {
            return new HookCall(hook, request, reply, response, problems, refusals, limit);
        }

        /** Calls a hook of the controller and reads the answer as Metacontroller's decoder would for that hook. */
        static HookCall send(HookClient hooks, ControllerSpec spec, String hook, ObjectNode request) {
            return read(spec, hook, request, hooks.call(hook, CanonicalJson.bytes(request))).within(spec.hooks().get(hook).timeout());
        }

        private static HookCall read(ControllerSpec spec, String hook, ObjectNode request, HookClient.Reply reply) {
            if (reply.status() != 200) {
                return new HookCall(hook, request, reply, null, List.of());
            }
            JsonNode response;
            try {
                response = Json.parse(reply.body());
            } catch (RuntimeException e) {
                return new HookCall(hook, request, reply, null, List.of("the response is not JSON: " + e.getMessage()));
            }
            boolean strict = spec.hooks().get(hook).strict();
            List<String> problems = switch (hook) {
                case "customize" -> ResponseCheck.customize(response, strict);
                default -> spec.decorator() ? ResponseCheck.decorator(response, strict) : ResponseCheck.composite(response, strict);
            };
            return new HookCall(hook, request, reply, response, problems);
        }
    }

    /**
     * One pass: how it ended, the call it made (the latest revision's, when children roll), what the
     * answer asked for, the updates sent to existing children, and every hook call of the pass (one
     * per ControllerRevision when children roll, customize's not counted).
     */
    public record Pass(Outcome outcome, HookCall call, Duration retryAfter, Duration resyncAfter, boolean finalized, String error,
                       List<ChildUpdate> updates, List<HookCall> calls) {
        public Pass(Outcome outcome, HookCall call, Duration retryAfter, Duration resyncAfter, boolean finalized, String error,
                    List<ChildUpdate> updates) {
            this(outcome, call, retryAfter, resyncAfter, finalized, error, updates, call == null ? List.of() : List.of(call));
        }

        public Pass(Outcome outcome, HookCall call, Duration retryAfter, Duration resyncAfter, boolean finalized, String error) {
            this(outcome, call, retryAfter, resyncAfter, finalized, error, List.of());
        }

        /** The updates sent although the answer asked for none: the child is what was last applied. */
        public List<ChildUpdate> needlessUpdates() {
            return updates.stream().filter(ChildUpdate::needless).toList();
        }
    }

    /** One sync pass for the parent, as Metacontroller runs it after any event. */
    @Override
    public Pass sync(ChildId parentRef) {
        Optional<ObjectNode> found = store.get(parentRef);
        if (found.isEmpty()) {
            return new Pass(Outcome.PARENT_GONE, null, null, null, false, null);
        }
        if (!watches(found.get())) {
            return new Pass(Outcome.IGNORED, null, null, null, false, null);
        }
        ObjectNode parent = syncFinalizer(parentRef, found.get());
        if (!watches(parent)) {
            return new Pass(Outcome.IGNORED, null, null, null, false, null);
        }
        boolean deleting = parent.path("metadata").hasNonNull("deletionTimestamp");
        if (rolling && !(deleting && !(spec.hasFinalize() && hasFinalizer(parent)))) {
            return syncRevisions(parentRef, parent);
        }
        List<ObjectNode> seen = observed(parent);
        HookCall call = call(parent);
        if (call.reply().status() == 429) {
            return new Pass(Outcome.RETRY_LATER, call, retryAfter(call.reply().header("Retry-After")), null, false, null);
        }
        if (!call.succeeded()) {
            return new Pass(Outcome.FAILED, call, null, null, false, failure(call));
        }
        return apply(parentRef, parent, call, seen);
    }

    /**
     * Builds the request Metacontroller would send for the parent as it is now, and calls the hook;
     * customize first, when the controller has one: its failed call (or refused rule) is the answer then.
     */
    @Override
    public HookCall call(ObjectNode parent) {
        Customize.Result related = customize.related(parent, version(parent));
        if (related.failed()) {
            return related.call();
        }
        return call(parent, related);
    }

    private HookVersion version(JsonNode parent) {
        return spec.hooks().get(hook(parent)).version();
    }

    /**
     * Finalize for a parent being deleted, or one that no longer matches {@code parentResource.labelSelector}
     * (Metacontroller v4.6.0 and later), when the controller has a finalize hook; sync otherwise.
     */
    private String hook(JsonNode parent) {
        return spec.hasFinalize() && (parent.path("metadata").hasNonNull("deletionTimestamp") || !selects(parent)) ? "finalize" : "sync";
    }

    /** Whether the parent's labels match the CompositeController's {@code parentResource.labelSelector} (none selects every parent). */
    public boolean selects(JsonNode parent) {
        return LabelSelectors.matches(parentSelector(), parent.path("metadata").path("labels"));
    }

    /** The {@code parentResource.labelSelector}, as one line. */
    public String describeSelector() {
        JsonNode selector = parentSelector();
        return selector.isMissingNode() || selector.isNull() ? "no labelSelector" : "labelSelector " + CanonicalJson.string(selector);
    }

    private JsonNode parentSelector() {
        return spec.manifest().path("spec").path("parentResource").path("labelSelector");
    }

    /** Metacontroller syncs a parent its selector selects, or one that still has the controller's finalizer. */
    private boolean watches(JsonNode parent) {
        return selects(parent) || hasFinalizer(parent);
    }

    /** The sync (or finalize) call for a parent, with the related objects customize selected. */
    private HookCall call(ObjectNode parent, Customize.Result related) {
        String hook = hook(parent);
        boolean finalizing = hook.equals("finalize");
        HookVersion version = version(parent);
        boolean namespaced = parent.path("metadata").hasNonNull("namespace");
        ObjectMap children = ObjectMap.of(observed(parent), kinds.declaredGroups(spec), version, namespaced);
        return HookCall.send(hooks, spec, hook, new CompositeRequest(spec.manifest(), parent, children, related.related(), finalizing).toJson());
    }

    /** The children Metacontroller observes: owned by the parent, of a declared type, matching its selector. */
    public List<ObjectNode> observed(JsonNode parent) {
        String uid = parent.path("metadata").path("uid").asText();
        List<ObjectNode> observed = new ArrayList<>();
        for (ObjectNode child : store.ownedBy(uid)) {
            kinds.learn(child);
            if (declared(child) && matchesSelector(parent, child.path("metadata").path("labels"))) {
                observed.add(child);
            }
        }
        return observed;
    }

    private ObjectNode syncFinalizer(ChildId parentRef, ObjectNode parent) {
        boolean deleting = parent.path("metadata").hasNonNull("deletionTimestamp");
        boolean has = hasFinalizer(parent);
        if (spec.hasFinalize() && !deleting && !has) {
            store.addFinalizer(parentRef, spec.finalizer());
        } else if (!spec.hasFinalize() && has) {
            store.removeFinalizer(parentRef, spec.finalizer());
        }
        return store.get(parentRef).orElse(parent);
    }

    private Pass apply(ChildId parentRef, ObjectNode parent, HookCall call, List<ObjectNode> seen) {
        JsonNode response = call.response();
        return apply(parentRef, parent, seen, List.of(call), desiredChildren(parent, response.path("children")), response.get("status"),
                seconds(response.get("resyncAfterSeconds")), response.path("finalized").asBoolean(false));
    }

    /**
     * The answer (of every revision, aggregated) applied to the children as they were observed before
     * the call (another writer may have changed them since: Metacontroller's update then meets a 409):
     * resync, finalizer, selector check, children, status.
     */
    private Pass apply(ChildId parentRef, ObjectNode parent, List<ObjectNode> seen, List<HookCall> calls, List<ObjectNode> desired,
                       JsonNode status, Duration resync, boolean finalized) {
        HookCall call = calls.get(0);
        boolean hadFinalizer = hasFinalizer(parent);
        if (finalized) {
            store.removeFinalizer(parentRef, spec.finalizer());
            if (store.get(parentRef).isEmpty()) {
                return new Pass(Outcome.APPLIED, call, null, resync, true, null, List.of(), calls);
            }
        }
        for (ObjectNode child : desired) {
            if (child.path("metadata").has("labels") && !child.path("metadata").get("labels").isObject()) {
                return new Pass(Outcome.FAILED, call, null, resync, finalized, "invalid labels on desired child " + Ids.text(Ids.of(child))
                        + ": .metadata.labels accessor error: " + child.path("metadata").get("labels") + " is not a map");
            }
            if (!matchesSelector(parent, child.path("metadata").path("labels"))) {
                return new Pass(Outcome.FAILED, call, null, resync, finalized, "labels on desired child " + Ids.text(Ids.of(child))
                        + " don't match parent selector", List.of(), calls);
            }
        }
        boolean deleting = parent.path("metadata").hasNonNull("deletionTimestamp");
        List<ChildUpdate> updates = List.of();
        String manageError = null;
        if (!deleting || hadFinalizer && !finalized) {
            try {
                updates = apply.manage(parent, seen, desired);
            } catch (Conflict | UnservedKinds failure) {
                manageError = "can't reconcile children for " + parent.path("kind").asText() + " " + Ids.of(parent).namespace()
                        + "/" + Ids.of(parent).name() + ": " + failure.getMessage();
            }
        }
        writeStatus(parentRef, parent, status);
        return new Pass(manageError == null ? Outcome.APPLIED : Outcome.FAILED, call, null, resync, finalized, manageError, updates, calls);
    }

    /**
     * A sync of a parent whose children roll: its ControllerRevisions claimed (one made for the
     * parent as it is now), the hook called once per revision with the parent carrying that
     * revision's fields, claims moved as {@link RollingUpdate} says, empty revisions deleted, then the
     * aggregated answer applied with the {@code Updated} condition in the latest revision's status.
     */
    private Pass syncRevisions(ChildId parentRef, ObjectNode parent) {
        Customize.Result related = customize.related(parent, version(parent));
        if (related.failed()) {
            return new Pass(Outcome.FAILED, related.call(), null, null, false, failure(related.call()));
        }
        List<ControllerRevisions.Revision> observedRevisions = revisions.observed(parent);
        List<ControllerRevisions.Revision> owners = new ArrayList<>();
        List<ObjectNode> parents = new ArrayList<>();
        claim(parent, observedRevisions, owners, parents);
        List<ObjectNode> seen = observed(parent);
        List<HookCall> calls = new ArrayList<>();
        for (ObjectNode revisionParent : parents) {
            HookCall call = call(revisionParent, related);
            calls.add(call);
            if (call.reply().status() == 429) {
                return new Pass(Outcome.RETRY_LATER, calls.get(0), retryAfter(call.reply().header("Retry-After")), null, false, null,
                        List.of(), calls);
            }
            if (!call.succeeded()) {
                return new Pass(Outcome.FAILED, call, null, null, false, failure(call), List.of(), calls);
            }
        }
        List<RollingUpdate.Revisioned> revisioned = new ArrayList<>();
        for (int i = 0; i < parents.size(); i++) {
            revisioned.add(new RollingUpdate.Revisioned(owners.get(i), parents.get(i), calls.get(i),
                    desiredChildren(parent, calls.get(i).response().path("children"))));
        }
        RollingUpdate rolling = new RollingUpdate(RollingUpdate.strategies(spec, kinds), metacontroller.stallsNamespacedRollouts());
        ObjectNode status;
        try {
            status = RollingUpdate.withCondition(calls.get(0).response().get("status"), rolling.roll(revisioned, seen));
        } catch (IllegalArgumentException e) {
            return new Pass(Outcome.FAILED, calls.get(0), null, null, false, e.getMessage(), List.of(), calls);
        }
        revisioned.subList(1, revisioned.size()).removeIf(revision -> revision.revision().count() == 0);
        revisions.manage(observedRevisions, revisioned.stream().map(RollingUpdate.Revisioned::revision).toList());
        Duration resync = null;
        boolean finalized = true;
        for (HookCall call : calls) {
            Duration after = seconds(call.response().get("resyncAfterSeconds"));
            resync = after != null && (resync == null || after.compareTo(resync) < 0) ? after : resync;
            finalized &= call.response().path("finalized").asBoolean(false);
        }
        return apply(parentRef, parent, seen, calls, RollingUpdate.desired(revisioned), status, resync, finalized);
    }

    /**
     * The revisions a sync works with, latest first, and the parent each stands for: the observed
     * revision whose fields are the parent's (or a new one) with the parent itself, then every other
     * observed revision with the parent carrying its fields.
     */
    private void claim(ObjectNode parent, List<ControllerRevisions.Revision> observed, List<ControllerRevisions.Revision> owners,
                       List<ObjectNode> parents) {
        ObjectNode latestPatch = revisions.patch(parent);
        ControllerRevisions.Revision latest = null;
        for (ControllerRevisions.Revision revision : observed) {
            if (revision.object.path("parentPatch").equals(latestPatch)) {
                latest = new ControllerRevisions.Revision(revision.object.deepCopy());
            } else {
                owners.add(new ControllerRevisions.Revision(revision.object.deepCopy()));
                parents.add(revisions.materialize(parent, revision.object.path("parentPatch")));
            }
        }
        owners.add(0, latest != null ? latest : revisions.create(parent, latestPatch));
        parents.add(0, parent);
    }

    /** The children of an answer as Metacontroller applies them: the parent's namespace, the controller-uid label. */
    public List<ObjectNode> desiredChildren(ObjectNode parent, JsonNode children) {
        List<ObjectNode> desired = new ArrayList<>();
        String namespace = parent.path("metadata").path("namespace").asText("");
        for (JsonNode child : children) {
            ObjectNode copy = child.deepCopy();
            kinds.learn(copy);
            ObjectNode metadata = copy.withObjectProperty("metadata");
            if (!metadata.hasNonNull("namespace") && !namespace.isEmpty()) {
                metadata.put("namespace", namespace);
            }
            boolean labelsReadable = !metadata.has("labels") || metadata.get("labels").isObject();
            if (spec.generateSelector() && labelsReadable && !metadata.path("labels").has("controller-uid")) {
                metadata.withObjectProperty("labels").put("controller-uid", parent.path("metadata").path("uid").asText());
            }
            desired.add(copy);
        }
        return desired;
    }

    /** The object Metacontroller would write over an observed child for this desired one. */
    public static ObjectNode merged(ObjectNode observed, ObjectNode desired) {
        return Apply.merged(observed, desired);
    }

    private void writeStatus(ChildId parentRef, ObjectNode parent, JsonNode status) {
        ObjectNode written = status != null && status.isObject() ? status.deepCopy() : Json.object();
        written.put("observedGeneration", parent.path("metadata").path("generation").asLong(0));
        if (spec.parentSchema() != null) {
            SchemaPruning.prune(spec.parentSchema().at("/properties/status"), written, "status")
                    .forEach(path -> pruned.add(path.replaceAll("\\[\\d+]", "[]")));
        }
        store.setStatus(parentRef, written);
    }

    /**
     * The fields of the parent's status the API server dropped because the parent's CRD does not declare
     * them (with the CRD's schema known), each once, in the order first seen.
     */
    public List<String> prunedStatus() {
        return List.copyOf(pruned);
    }

    private boolean declared(JsonNode child) {
        String apiVersion = child.path("apiVersion").asText();
        return spec.childResources().stream().anyMatch(c -> c.apiVersion().equals(apiVersion)
                && child.path("kind").asText().equals(kinds.kind(apiVersion, c.resource())));
    }

    private boolean matchesSelector(JsonNode parent, JsonNode labels) {
        if (spec.generateSelector()) {
            return parent.path("metadata").path("uid").asText().equals(labels.path("controller-uid").asText(null));
        }
        JsonNode selector = parent.path("spec").path("selector");
        return !selector.isMissingNode() && !LabelSelectors.isEmpty(selector) && LabelSelectors.matches(selector, labels);
    }

    private boolean hasFinalizer(JsonNode parent) {
        for (JsonNode finalizer : parent.path("metadata").path("finalizers")) {
            if (finalizer.asText().equals(spec.finalizer())) {
                return true;
            }
        }
        return false;
    }



    static String failure(HookCall call) {
        if (call.reply().error() != null) {
            return call.reply().error();
        }
        if (call.late()) {
            return "http error: Post: context deadline exceeded (Client.Timeout exceeded while awaiting headers): the answer took "
                    + call.reply().took().toMillis() + " ms, the hook's timeout is " + call.timeout().toMillis() + " ms";
        }
        if (call.reply().status() != 200) {
            return "unsupported status code: " + call.reply().status() + " body: " + Excerpt.body(call.reply().body());
        }
        if (!call.refusals().isEmpty()) {
            return call.refusals().get(0).detail();
        }
        return "can't unmarshal webhookResponse: " + String.join("; ", call.problems());
    }

    /** Retry-After as integer seconds or an HTTP date; garbage means 0, as Metacontroller reads it. */
    static Duration retryAfter(String header) {
        if (header == null) {
            return Duration.ZERO;
        }
        try {
            return Duration.ofSeconds(Math.max(0, Long.parseLong(header.trim())));
        } catch (NumberFormatException notSeconds) {
            try {
                var date = ZonedDateTime.parse(header.trim(), DateTimeFormatter.RFC_1123_DATE_TIME);
                return Duration.ofSeconds(Math.max(0, Duration.between(Instant.now(), date.toInstant()).toSeconds() + 1));
            } catch (RuntimeException notADate) {
                return Duration.ZERO;
            }
        }
    }

    private static Duration seconds(JsonNode value) {
        if (value == null || !value.isNumber() || value.decimalValue().signum() <= 0) {
            return null;
        }
        return Duration.ofMillis(value.decimalValue().multiply(BigDecimal.valueOf(1000)).longValue());
    }
}
