package dev.metahook.internal.engine;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.api.Controllers.Registration;
import dev.metahook.api.DecoratorResult;
import dev.metahook.api.Hook;
import dev.metahook.api.HookResult;
import dev.metahook.api.Result;
import dev.metahook.api.TerminalException;
import dev.metahook.internal.wire.CanonicalJson;
import dev.metahook.internal.wire.DecoratorRequest;
import dev.metahook.internal.wire.DecoratorResponse;
import dev.metahook.internal.wire.Json;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.time.Clock;
import java.util.List;
import java.util.Map;

/**
 * Sync and finalize for a DecoratorController. The target may be a built-in object whose status is
 * another controller's: unless the decorator sets one, the answer leaves the status out, and a
 * terminal error keeps the attachments and changes nothing else, but for a stored status the decorator
 * cannot read, which is stalled as a composite's is.
 */
final class DecoratorHooks {
    private final Clock clock;

    DecoratorHooks(Clock clock) {
        this.clock = clock;
    }

    <P extends HasMetadata> HookAnswer call(Registration<P> registration, Hook hook, DecoratorRequest request) {
        boolean finalizing = request.finalizing();
        CompositeHooks.checkRoute(registration, hook, finalizing);
        TypedObjects.checkKind(request.target(), registration.type(), Json.object(), "object");
        String namespace = CompositeHooks.namespaceOf(request.target());
        HookContext context = CompositeHooks.context(request.controller(), request.target(), request.attachments(), request.related(),
                "attachments", "attachments", hook, finalizing, clock);
        var typed = TypedObjects.read(request.target(), registration.type(), "object", CompositeHooks.readsRawStatus(registration));
        ControllerCall.Answered answered = ControllerCall.run(registration, typed, context,
                error -> stalled(request, typed, error));
        HookResult<?> result = answered.result();
        List<ObjectNode> attachments = DesiredChildren.of(result, request.attachments(), namespace);
        new Guards(request.controller(), request.target(), request.attachments(), request.related(), true)
                .check(attachments, result);
        ObjectNode status = result.status().map(Encoding::status).orElse(null);
        DecoratorResponse response = new DecoratorResponse(labels(result), annotations(result), status, attachments,
                Encoding.seconds(result.resyncAfter()), finalizing ? answered.finalized() : null);
        return HookAnswer.ok(CanonicalJson.bytes(response.toJson()),
                answered.outcome(finalizing), attachments.size());
    }

    /**
     * A terminal error keeps the attachments and leaves the target's status alone (it may be another controller's),
     * but for a stored status that does not fit the target's type: that status is the one the decorator reads and
     * writes, so it gets {@code Stalled=True InvalidStatus} as a composite's does, and stops being silently frozen.
     */
    private Result<?> stalled(DecoratorRequest request, TypedObjects.Typed<?> typed, TerminalException error) {
        if (error != typed.invalidStatus()) {
            return Result.keepingObserved();
        }
        return Result.keepingObserved().withStatus(StalledStatus.of(request.target(), error, clock));
    }

    /** The target's labels to change; a {@link Result} changes none. */
    private static Map<String, String> labels(HookResult<?> result) {
        return result instanceof DecoratorResult<?> changes ? changes.labels() : Map.of();
    }

    /** The target's annotations to change; a {@link Result} changes none. */
    private static Map<String, String> annotations(HookResult<?> result) {
        return result instanceof DecoratorResult<?> changes ? changes.annotations() : Map.of();
    }
}
