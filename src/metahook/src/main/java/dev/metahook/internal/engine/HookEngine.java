package dev.metahook.internal.engine;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahook.api.Controllers;
import dev.metahook.api.Controllers.Kind;
import dev.metahook.api.Controllers.Registration;
import dev.metahook.api.Hook;
import dev.metahook.api.TransientException;
import dev.metahook.internal.wire.CompositeRequest;
import dev.metahook.internal.wire.CustomizeRequest;
import dev.metahook.internal.wire.DecoratorRequest;
import dev.metahook.internal.wire.MalformedRequestException;
import dev.metahook.internal.wire.ObservedHeap;
import dev.metahook.internal.wire.ObservedHeap.HeapRefused;
import io.opentelemetry.api.trace.Span;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One hook call, start to end: find the controller, decode, dispatch, guard, encode; and map every
 * failure onto an answer Metacontroller handles the right way. A bad request is a 400 that changes
 * nothing; a transient error a 429 with {@code Retry-After}; a refused response or a bug a 500, never
 * a 200 that could delete children; a call whose observed objects the memory budget cannot hold as
 * they are read a 503 with {@code Retry-After} (a 413 when no budget of this heap could). Thread-safe;
 * holds no state between calls.
 */
public final class HookEngine {
    private static final Logger LOG = LoggerFactory.getLogger(HookEngine.class);
    private static final int MAX_DETAIL = 300;
    /** When a call refused for memory may come again: the same as a call refused before its body is read. */
    public static final int OVERLOADED_RETRY_AFTER_SECONDS = 1;

    private final Controllers controllers;
    private final CompositeHooks composite;
    private final DecoratorHooks decorator;
    private final CustomizeHook customize;

    public HookEngine(Controllers controllers, Clock clock) {
        this.controllers = controllers;
        this.composite = new CompositeHooks(clock);
        this.decorator = new DecoratorHooks(clock);
        this.customize = new CustomizeHook(clock);
    }

    public Controllers controllers() {
        return controllers;
    }

    /** Answers one call of {@code POST /<controller>/<hook>} with this body, the heap of its observed objects unbounded. */
    public HookAnswer handle(String controllerName, String hookName, byte[] body) {
        return handle(controllerName, hookName, body, ObservedHeap.UNLIMITED);
    }

    /**
     * Answers one call of {@code POST /<controller>/<hook>} with this body, each observed object claiming
     * its heap from {@code heap} when it is first built.
     */
    public HookAnswer handle(String controllerName, String hookName, byte[] body, ObservedHeap heap) {
        Registration registration = controllers.get(controllerName).orElse(null);
        if (registration == null) {
            return HookAnswer.problem(Problem.of("unknown-controller", "Unknown controller", 404,
                    "no controller is named '" + controllerName + "'; this server has " + controllers.names()));
        }
        Hook hook = Hook.fromSegment(hookName);
        if (hook == null || !registration.hooks().contains(hook)) {
            return HookAnswer.problem(Problem.of("unknown-hook", "Unknown hook", 404,
                    "controller " + controllerName + " has no hook '" + hookName + "'; it has " + paths(registration)));
        }
        Decoded request;
        try {
            request = decode(registration, hook, body, heap);
        } catch (MalformedRequestException e) {
            return heap.refused() ? heapRefused(heap.refusal()) : badRequest(e);
        } catch (HeapRefused e) {
            return heapRefused(e);
        }
        Decoded decoded = request;
        HookAnswer answer = CallMdc.around(registration.name(), hook.segment(), request.facts(), () -> dispatch(registration, hook, decoded));
        return (heap.refused() ? heapRefused(heap.refusal()) : answer).about(request.facts());
    }

    /** A request read for its hook (one of the three is set), and what it is about. */
    private record Decoded(CompositeRequest composite, DecoratorRequest decorator, CustomizeRequest customize,
                           HookAnswer.Facts facts) {
    }

    /** Every request is read in one pass of the byte scanner; children and attachments stay bytes until used. */
    private static Decoded decode(Registration registration, Hook hook, byte[] body, ObservedHeap heap) {
        if (hook == Hook.CUSTOMIZE) {
            CustomizeRequest request = CustomizeRequest.read(body, heap);
            ObjectChecks.timestamps(request.parent(), "/parent");
            return new Decoded(null, null, request, facts(request.parent(), 0));
        }
        if (registration.kind() == Kind.COMPOSITE) {
            CompositeRequest request = CompositeRequest.read(body, heap);
            ObjectChecks.timestamps(request.parent(), "/parent");
            return new Decoded(request, null, null, facts(request.parent(), request.children().size()));
        }
        DecoratorRequest request = DecoratorRequest.read(body, heap);
        ObjectChecks.timestamps(request.target(), "/object");
        return new Decoded(null, request, null, facts(request.target(), request.attachments().size()));
    }

    private HookAnswer dispatch(Registration registration, Hook hook, Decoded request) {
        String parent = request.facts().parent();
        try {
            if (request.customize() != null) {
                return customize.call(registration, request.customize());
            }
            if (request.composite() != null) {
                return composite.call(registration, hook, request.composite());
            }
            return decorator.call(registration, hook, request.decorator());
        } catch (HeapRefused e) {
            return heapRefused(e);
        } catch (MalformedRequestException e) {
            return badRequest(e);
        } catch (TransientException e) {
            return retryLater(e);
        } catch (GuardViolation e) {
            LOG.warn("{} {} for {}: response refused: {}", registration.name(), hook.segment(), parent, e.getMessage());
            return HookAnswer.problem(new Problem("response-refused", "Response refused by guards", 500,
                    "the controller's answer breaks Metacontroller's contract; nothing was sent: "
                            + shorten(e.violations().get(0)), null, e.violations()));
        } catch (RuntimeException | StackOverflowError e) {
            LOG.error("{} {} for {} failed", registration.name(), hook.segment(), parent, e);
            Span.current().recordException(e);
            return HookAnswer.problem(Problem.of("controller-failed", "Controller failed", 500,
                    "controller " + registration.name() + " failed on " + kindOf(request) + parent + ": "
                            + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + shorten(e.getMessage()))));
        }
    }

    private static HookAnswer.Facts facts(JsonNode object, int observed) {
        JsonNode metadata = object.path("metadata");
        String namespace = metadata.path("namespace").asText("");
        return new HookAnswer.Facts((namespace.isEmpty() ? "" : namespace + "/") + metadata.path("name").asText(),
                metadata.path("generation").canConvertToLong() ? metadata.path("generation").asLong() : -1, observed, 0);
    }

    private static String kindOf(Decoded request) {
        JsonNode object = request.composite() != null ? request.composite().parent()
                : request.decorator() != null ? request.decorator().target() : request.customize().parent();
        return object.path("kind").asText("?") + " ";
    }

    private static HookAnswer badRequest(MalformedRequestException e) {
        return HookAnswer.problem(new Problem("malformed-request", "Malformed request", 400, shorten(e.getMessage()),
                e.pointer().isEmpty() ? null : e.pointer(), List.of()));
    }

    /**
     * The answer when the observed objects a call reads do not fit its memory budget: the same 503 a
     * call refused on admission gets, or a 413 when no budget of this heap could hold them. Nothing the
     * controller worked out from what it did read is answered.
     */
    private static HookAnswer heapRefused(HeapRefused e) {
        if (e.fitsLater()) {
            return HookAnswer.problem(Problem.overloaded(), Map.of("Retry-After", Integer.toString(OVERLOADED_RETRY_AFTER_SECONDS)));
        }
        return HookAnswer.problem(Problem.tooCostly(e.getMessage()));
    }

    private static HookAnswer retryLater(TransientException e) {
        long seconds = Math.max(1, divideRoundingUp(e.retryAfter()));
        Problem problem = Problem.of("retry-later", "Retry later", 429, shorten(String.valueOf(e.getMessage())));
        return HookAnswer.problem(problem, Map.of("Retry-After", Long.toString(seconds)));
    }

    private static long divideRoundingUp(Duration delay) {
        return delay.plusNanos(999_999_999L).getSeconds();
    }

    private static String paths(Registration registration) {
        return registration.hooks().stream().map(Hook::segment).toList().toString();
    }

    private static String shorten(String text) {
        return text.length() <= MAX_DETAIL ? text : text.substring(0, MAX_DETAIL) + "…";
    }
}
