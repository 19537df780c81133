package dev.metahook.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.api.DecoratorResult;
import dev.metahook.api.TerminalException;
import dev.metahook.engine.Controllers.DecoratorRegistration;
import dev.metahook.wire.CanonicalJson;
import dev.metahook.wire.DecoratorRequest;
import dev.metahook.wire.DecoratorResponse;
import dev.metahook.wire.Json;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.time.Clock;
import java.util.List;

/**
 * Sync and finalize for a DecoratorController. A terminal error keeps the attachments and sets only
 * the conditions of the target's status.
 */
final class DecoratorHooks {
    private final Clock clock;

    DecoratorHooks(Clock clock) {
        this.clock = clock;
    }

    HookAnswer call(DecoratorRegistration registration, Hook hook, DecoratorRequest request) {
        boolean finalizing = request.finalizing();
        CompositeHooks.checkRoute(registration, hook, finalizing);
        TypedObjects.checkKind(request.object(), registration.parentType(), Json.object(), "object");
        String namespace = CompositeHooks.namespaceOf(request.object());
        ObservedView observed = new ObservedView(request.attachments(), namespace, "attachments");

        DecoratorResult result;
        String outcome;
        var typed = TypedObjects.read(request.object(), registration.parentType(), "object");
        try {
            if (typed.invalid() != null && !finalizing) {
                throw typed.invalid();
            }
            HasMetadata object = typed.object();
            result = finalizing ? registration.controller().finalize(object, observed) : registration.controller().sync(object, observed);
            outcome = result.isFinalized() ? "finalized" : finalizing ? "finalizing" : "synced";
        } catch (TerminalException e) {
            result = DecoratorResult.keepingAttachments().withStatus(StalledStatus.of(request.object(), e, clock));
            outcome = "stalled";
        }
        List<ObjectNode> attachments = DesiredChildren.of(result.attachments(), request.attachments(), namespace);
        new Guards(request.controller(), request.object(), request.attachments(), "attachments", false)
                .check(attachments, result.attachments(), result.isFinalized(), finalizing);
        ObjectNode status = result.status().map(Encoding::status).orElse(null);
        DecoratorResponse response = new DecoratorResponse(result.labels(), result.annotations(), status, attachments,
                Encoding.seconds(result.attachments().resyncAfter()), finalizing ? result.isFinalized() : null);
        return HookAnswer.ok(CanonicalJson.bytes(response.toJson()), outcome, attachments.size());
    }
}
