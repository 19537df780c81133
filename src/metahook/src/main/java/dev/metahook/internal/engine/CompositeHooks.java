package dev.metahook.internal.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.api.Controllers.Registration;
import dev.metahook.api.Hook;
import dev.metahook.api.RawStatusReader;
import dev.metahook.api.Result;
import dev.metahook.internal.contract.Breach;
import dev.metahook.internal.wire.CanonicalJson;
import dev.metahook.internal.wire.CompositeRequest;
import dev.metahook.internal.wire.CompositeResponse;
import dev.metahook.internal.wire.HookVersion;
import dev.metahook.internal.wire.Json;
import dev.metahook.internal.wire.MalformedRequestException;
import dev.metahook.internal.wire.ObjectMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.time.Clock;
import java.util.List;

/** Sync and finalize for a CompositeController: request in, guarded response out. */
final class CompositeHooks {
    private final Clock clock;

    CompositeHooks(Clock clock) {
        this.clock = clock;
    }

    <P extends HasMetadata> HookAnswer call(Registration<P> registration, Hook hook, CompositeRequest request) {
        boolean finalizing = request.finalizing();
        checkRoute(registration, hook, finalizing);
        TypedObjects.checkKind(request.parent(), registration.type(), request.controller(), "parent");
        String namespace = namespaceOf(request.parent());
        HookContext context = context(request.controller(), request.parent(), request.children(), request.related(), "children",
                "childResources", hook, finalizing, clock);
        var typed = TypedObjects.read(request.parent(), registration.type(), "parent", readsRawStatus(registration));
        ControllerCall.Answered answered = ControllerCall.run(registration, typed, context,
                error -> Result.keepingObserved().withStatus(StalledStatus.of(request.parent(), error, clock)));
        Result<?> result = compositeResult(answered);
        List<ObjectNode> children = DesiredChildren.of(result, request.children(), namespace);
        new Guards(request.controller(), request.parent(), request.children(), request.related(), false)
                .check(children, result);
        CompositeResponse response = new CompositeResponse(status(result, request.parent()), children,
                Encoding.seconds(result.resyncAfter()), finalizing ? answered.finalized() : null);
        return HookAnswer.ok(CanonicalJson.bytes(response.toJson()), answered.outcome(finalizing), children.size());
    }

    /**
     * A composite's hooks return a {@link Result} by their types, and its registration refuses a cleanup
     * that could answer more; should target label or annotation changes get past both, they are
     * refused here rather than dropped.
     */
    private static Result<?> compositeResult(ControllerCall.Answered answered) {
        if (answered.result() instanceof Result<?> result) {
            return result;
        }
        throw new GuardViolation(List.of(new Breach("unknown-field", "the result sets labels or annotations, which only a"
                + " DecoratorController can answer (a CompositeController's response has no such fields: Metacontroller would"
                + " drop them; label the children instead, or serve it as a decorator)")));
    }

    /**
     * The status to send: the controller's, or else the one the parent has, since Metacontroller would
     * replace the parent's status with an empty one.
     */
    private static ObjectNode status(Result<?> result, ObjectNode parent) {
        if (result.status().isPresent()) {
            return Encoding.status(result.status().get());
        }
        JsonNode observed = parent.path("status");
        return observed instanceof ObjectNode object ? object : Json.object();
    }

    /** Whether the controller takes a parent whose status does not fit, reading the status raw. */
    static boolean readsRawStatus(Registration<?> registration) {
        return registration.controller() instanceof RawStatusReader;
    }

    /** The context of a sync or finalize call: children keyed by the hook's version, related objects likewise. */
    static HookContext context(ObjectNode controller, ObjectNode parent, ObjectMap children,
                               ObjectMap related, String field, String declarations, Hook hook,
                               boolean finalizing, Clock clock) {
        String namespace = namespaceOf(parent);
        boolean v2 = HookVersion.declared(controller, hook.segment()) == HookVersion.V2;
        ObservedView observed = ObservedView.children(children, namespace, field);
        ObservedView relatedView = new ObservedView(related, namespace, v2 ? "" : namespace, "related");
        return new HookContext(observed, relatedView, new ControllerObject(controller, declarations), finalizing, clock,
                parent);
    }

    /** The route names the hook; {@code finalizing} in the body must agree, and only a controller with finalize gets it. */
    static void checkRoute(Registration<?> registration, Hook hook, boolean finalizing) {
        if (hook == Hook.FINALIZE && !finalizing) {
            throw new MalformedRequestException("/finalizing", "/finalizing is false, but this is the finalize hook");
        }
        if (finalizing && !registration.hooks().contains(Hook.FINALIZE)) {
            throw new MalformedRequestException("/finalizing",
                    "/finalizing is true, but controller " + registration.name() + " has no finalize hook");
        }
    }

    /** The object's namespace, {@code ""} when it has none (as {@link dev.metahook.api.ChildId} spells it). */
    static String namespaceOf(JsonNode object) {
        return object.path("metadata").path("namespace").asText("");
    }
}
