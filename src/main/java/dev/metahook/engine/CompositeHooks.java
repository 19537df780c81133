package dev.metahook.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.api.Finalization;
import dev.metahook.api.SyncResult;
import dev.metahook.api.TerminalException;
import dev.metahook.engine.Controllers.CompositeRegistration;
import dev.metahook.wire.CanonicalJson;
import dev.metahook.wire.CompositeRequest;
import dev.metahook.wire.CompositeResponse;
import dev.metahook.wire.Json;
import dev.metahook.wire.MalformedRequestException;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.time.Clock;
import java.util.List;

/** Sync and finalize for a CompositeController: request in, guarded response out. */
final class CompositeHooks {
    private final Clock clock;

    CompositeHooks(Clock clock) {
        this.clock = clock;
    }

    HookAnswer call(CompositeRegistration registration, Hook hook, CompositeRequest request) {
        boolean finalizing = request.finalizing();
        checkRoute(registration, hook, finalizing);
        TypedObjects.checkKind(request.parent(), registration.parentType(), request.controller(), "parent");
        String namespace = namespaceOf(request.parent());
        ObservedView observed = new ObservedView(request.children(), namespace, "children");

        Answer answer = answer(registration, request, observed, finalizing);
        SyncResult result = answer.result();
        boolean finalized = answer.done() && !answer.stalled();
        if (result.stalledBy().isPresent() && result.status().isEmpty()) {
            result = result.withStatus(StalledStatus.of(request.parent(), result.stalledBy().get(), clock));
        }
        String outcome = answer.stalled() ? "stalled" : finalizing ? (finalized ? "finalized" : "finalizing") : "synced";
        List<ObjectNode> children = DesiredChildren.of(result, request.children(), namespace);
        new Guards(request.controller(), request.parent(), request.children(), "childResources", true)
                .check(children, result, finalized, finalizing);
        ObjectNode status = result.status().map(Encoding::status).orElseGet(Json::object);
        CompositeResponse response = new CompositeResponse(status, children, Encoding.seconds(result.resyncAfter()),
                finalizing ? finalized : null);
        return HookAnswer.ok(CanonicalJson.bytes(response.toJson()), outcome, children.size());
    }

    /** What the controller answered, whether that was a finalize saying done, and whether it took the stalled path. */
    private record Answer(SyncResult result, boolean done, boolean stalled) {
    }

    private static Answer answer(CompositeRegistration registration, CompositeRequest request, ObservedView observed, boolean finalizing) {
        var controller = registration.controller();
        TypedObjects.Typed<? extends HasMetadata> typed = TypedObjects.read(request.parent(), registration.parentType(), "parent");
        HasMetadata parent = typed.object();
        try {
            if (finalizing) {
                Finalization finalization = controller.finalize(parent, observed);
                return new Answer(finalization.result(), finalization.isDone(), false);
            }
            if (typed.invalid() != null) {
                return new Answer(controller.stalled(parent, observed, typed.invalid()), false, true);
            }
            return new Answer(controller.sync(parent, observed), false, false);
        } catch (TerminalException e) {
            return new Answer(controller.stalled(parent, observed, e), false, true);
        }
    }

    /** The route names the hook; {@code finalizing} in the body must agree, and only a controller with finalize gets it. */
    static void checkRoute(Controllers.Registration registration, Hook hook, boolean finalizing) {
        if (hook == Hook.FINALIZE && !finalizing) {
            throw new MalformedRequestException("/finalizing", "/finalizing is false, but this is the finalize hook");
        }
        if (finalizing && !registration.hooks().contains(Hook.FINALIZE)) {
            throw new MalformedRequestException("/finalizing",
                    "/finalizing is true, but controller " + registration.name() + " has no finalize hook");
        }
    }

    static String namespaceOf(JsonNode object) {
        String namespace = object.path("metadata").path("namespace").asText("");
        return namespace.isEmpty() ? null : namespace;
    }
}
