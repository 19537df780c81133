package dev.metahook.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.contract.Breach;
import dev.metahook.wire.CanonicalJson;
import dev.metahook.wire.CompositeRequest;
import dev.metahook.wire.HookVersion;
import dev.metahook.wire.Json;
import dev.metahook.wire.LabelSelectors;
import dev.metahook.wire.ObjectMap;
import dev.metahook.wire.ResponseCheck;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
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

    public CompositeSimulator(ControllerSpec spec, Cluster store, HookClient hooks) {
        this.spec = spec;
        this.store = store;
        this.hooks = hooks;
        this.apply = new Apply(store, spec);
        this.customize = new Customize(spec, store, hooks, kinds);
    }

    @Override
    public ControllerSpec spec() {
        return spec;
    }

    @Override
    public Customize customize() {
        return customize;
    }

    /**
     * How one pass ended; {@code IGNORED}: no call, the object is not one the controller syncs (a
     * decorator's target its selectors no longer select, without the decorator's finalizer).
     */
    public enum Outcome { APPLIED, RETRY_LATER, FAILED, PARENT_GONE, IGNORED }

    /**
     * One hook call: the request sent, the reply, the parsed answer, what Metacontroller's decoder
     * refused in it, and the rules of the decoded answer Metacontroller then refuses (a customize rule's).
     */
    public record HookCall(String hook, ObjectNode request, HookClient.Reply reply, JsonNode response, List<String> problems,
                           List<Breach> refusals) {
        public HookCall(String hook, ObjectNode request, HookClient.Reply reply, JsonNode response, List<String> problems) {
            this(hook, request, reply, response, problems, List.of());
        }

        public boolean succeeded() {
            return reply.status() == 200 && response != null && problems.isEmpty() && refusals.isEmpty();
        }

        /** Calls a hook of the controller and reads the answer as Metacontroller's decoder would for that hook. */
        static HookCall send(HookClient hooks, ControllerSpec spec, String hook, ObjectNode request) {
            HookClient.Reply reply = hooks.call(hook, CanonicalJson.bytes(request));
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

    /** One pass: how it ended, the call it made, what the answer asked for, and the updates sent to existing children. */
    public record Pass(Outcome outcome, HookCall call, Duration retryAfter, Duration resyncAfter, boolean finalized, String error,
                       List<ChildUpdate> updates) {
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
    public Pass sync(ObjectRef parentRef) {
        Optional<ObjectNode> found = store.get(parentRef);
        if (found.isEmpty()) {
            return new Pass(Outcome.PARENT_GONE, null, null, null, false, null);
        }
        ObjectNode parent = syncFinalizer(parentRef, found.get());
        HookCall call = call(parent);
        if (call.reply().status() == 429) {
            return new Pass(Outcome.RETRY_LATER, call, retryAfter(call.reply().header("Retry-After")), null, false, null);
        }
        if (!call.succeeded()) {
            return new Pass(Outcome.FAILED, call, null, null, false, failure(call));
        }
        return apply(parentRef, parent, call);
    }

    /**
     * Builds the request Metacontroller would send for the parent as it is now, and calls the hook;
     * customize first, when the controller has one: its failed call (or refused rule) is the answer then.
     */
    @Override
    public HookCall call(ObjectNode parent) {
        boolean finalizing = spec.hasFinalize() && parent.path("metadata").hasNonNull("deletionTimestamp");
        String hook = finalizing ? "finalize" : "sync";
        HookVersion version = spec.hooks().get(hook).version();
        Customize.Result related = customize.related(parent, version);
        if (related.failed()) {
            return related.call();
        }
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

    private ObjectNode syncFinalizer(ObjectRef parentRef, ObjectNode parent) {
        boolean deleting = parent.path("metadata").hasNonNull("deletionTimestamp");
        boolean has = hasFinalizer(parent);
        if (spec.hasFinalize() && !deleting && !has) {
            store.addFinalizer(parentRef, spec.finalizer());
        } else if (!spec.hasFinalize() && has) {
            store.removeFinalizer(parentRef, spec.finalizer());
        }
        return store.get(parentRef).orElse(parent);
    }

    private Pass apply(ObjectRef parentRef, ObjectNode parent, HookCall call) {
        JsonNode response = call.response();
        Duration resync = seconds(response.get("resyncAfterSeconds"));
        boolean finalized = response.path("finalized").asBoolean(false);
        boolean hadFinalizer = hasFinalizer(parent);
        if (finalized) {
            store.removeFinalizer(parentRef, spec.finalizer());
            if (store.get(parentRef).isEmpty()) {
                return new Pass(Outcome.APPLIED, call, null, resync, true, null);
            }
        }
        List<ObjectNode> desired = desiredChildren(parent, response.path("children"));
        for (ObjectNode child : desired) {
            if (child.path("metadata").has("labels") && !child.path("metadata").get("labels").isObject()) {
                return new Pass(Outcome.FAILED, call, null, resync, finalized, "invalid labels on desired child " + ObjectRef.of(child)
                        + ": .metadata.labels accessor error: " + child.path("metadata").get("labels") + " is not a map");
            }
            if (!matchesSelector(parent, child.path("metadata").path("labels"))) {
                return new Pass(Outcome.FAILED, call, null, resync, finalized, "labels on desired child " + ObjectRef.of(child)
                        + " don't match parent selector");
            }
        }
        boolean deleting = parent.path("metadata").hasNonNull("deletionTimestamp");
        List<ChildUpdate> updates = !deleting || hadFinalizer && !finalized ? apply.manage(parent, observed(parent), desired) : List.of();
        writeStatus(parentRef, parent, response.get("status"));
        return new Pass(Outcome.APPLIED, call, null, resync, finalized, null, updates);
    }

    /** The children of an answer as Metacontroller applies them: the parent's namespace, the controller-uid label. */
    public List<ObjectNode> desiredChildren(ObjectNode parent, JsonNode children) {
        List<ObjectNode> desired = new ArrayList<>();
        String namespace = parent.path("metadata").path("namespace").asText("");
        for (JsonNode child : children) {
            ObjectNode copy = child.deepCopy();
            kinds.learn(copy);
            ObjectNode metadata = copy.with("metadata");
            if (!metadata.hasNonNull("namespace") && !namespace.isEmpty()) {
                metadata.put("namespace", namespace);
            }
            boolean labelsReadable = !metadata.has("labels") || metadata.get("labels").isObject();
            if (spec.generateSelector() && labelsReadable && !metadata.path("labels").has("controller-uid")) {
                metadata.with("labels").put("controller-uid", parent.path("metadata").path("uid").asText());
            }
            desired.add(copy);
        }
        return desired;
    }

    /** The object Metacontroller would write over an observed child for this desired one. */
    public static ObjectNode merged(ObjectNode observed, ObjectNode desired) {
        return Apply.merged(observed, desired);
    }

    private void writeStatus(ObjectRef parentRef, ObjectNode parent, JsonNode status) {
        ObjectNode written = status != null && status.isObject() ? status.deepCopy() : Json.object();
        written.put("observedGeneration", parent.path("metadata").path("generation").asLong(0));
        store.setStatus(parentRef, written);
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
        if (call.reply().status() != 200) {
            String body = new String(call.reply().body(), StandardCharsets.UTF_8);
            return "unsupported status code: " + call.reply().status() + " body: " + (body.length() > 300 ? body.substring(0, 300) : body);
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
