package dev.metahook.internal.engine;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahook.api.Controllers;
import dev.metahook.api.Controllers.Kind;
import dev.metahook.api.Controllers.Registration;
import dev.metahook.api.Hook;
import dev.metahook.api.TransientException;
import dev.metahook.internal.wire.CallBudget;
import dev.metahook.internal.wire.CompositeRequest;
import dev.metahook.internal.wire.CustomizeRequest;
import dev.metahook.internal.wire.DecoratorRequest;
import dev.metahook.internal.wire.MalformedRequestException;
import io.opentelemetry.api.trace.Span;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One hook call's lifecycle, start to end: find the controller, decode under the call's
 * {@link CallBudget}, call the controller, guard, encode; and map every failure onto an answer
 * Metacontroller handles the right way. A bad request is a 400 that changes nothing; a transient error
 * a 429 with {@code Retry-After}; a refused response or a bug a 500, never a 200 that could delete
 * children. Whether the budget refused the call (its work, or an observed object read while decoding or
 * by the controller) is checked once, when the call is done: such a call is answered
 * {@link HookAnswer#refused} whatever the controller made of it. Thread-safe; holds no state between calls.
 */
public final class HookEngine {
    private static final Logger LOG = LoggerFactory.getLogger(HookEngine.class);
    private static final int MAX_DETAIL = 300;
    /** How many of a refused answer's violations its WARN line names. */
    static final int VIOLATIONS_LOGGED = 3;

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

    /** Answers one call of {@code POST /<controller>/<hook>} with this body, its memory unbounded ({@link CallBudget#UNLIMITED}). */
    public HookAnswer handle(String controllerName, String hookName, byte[] body) {
        return handle(controllerName, hookName, body, CallBudget.UNLIMITED);
    }

    /**
     * Answers one call of {@code POST /<controller>/<hook>} with this body: its work admitted by
     * {@code budget} once the body is scanned, each observed object claiming its cost from it when first
     * built; the budget's refusal, if any, is the answer.
     */
    public HookAnswer handle(String controllerName, String hookName, byte[] body, CallBudget budget) {
        Registration<?> registration = controllers.get(controllerName).orElse(null);
        if (registration == null) {
            return HookAnswer.problem(Problem.of("unknown-controller", "Unknown controller", 404,
                    "no controller is named '" + controllerName + "'; this server has " + controllers.names()));
        }
        Hook hook = Hook.fromSegment(hookName);
        if (hook == null || !registration.hooks().contains(hook)) {
            return HookAnswer.problem(Problem.of("unknown-hook", "Unknown hook", 404,
                    "controller " + controllerName + " has no hook '" + hookName + "'; it has " + paths(registration)));
        }
        HookAnswer answer = null;
        HookAnswer.Facts facts = HookAnswer.Facts.NONE;
        try {
            Decoded request = decode(registration, hook, body, budget);
            facts = request.facts();
            answer = CallMdc.around(registration.name(), hook.segment(), facts, () -> dispatch(registration, hook, request));
        } catch (MalformedRequestException e) {
            answer = badRequest(e);
        } catch (CallBudget.Refused e) {
            // The budget keeps its refusal: answered just below.
        }
        CallBudget.Refused refused = budget.refusal();
        return (refused != null ? HookAnswer.refused(refused) : answer).about(facts);
    }

    /** A request read for its hook (one of the three is set), and what it is about. */
    private record Decoded(CompositeRequest composite, DecoratorRequest decorator, CustomizeRequest customize,
                           HookAnswer.Facts facts) {
    }

    /** Every request is read in one pass of the byte scanner; children and attachments stay bytes until used. */
    private static Decoded decode(Registration<?> registration, Hook hook, byte[] body, CallBudget budget) {
        if (hook == Hook.CUSTOMIZE) {
            CustomizeRequest request = CustomizeRequest.read(body, budget);
            ObjectChecks.timestamps(request.parent(), "/parent");
            return new Decoded(null, null, request, facts(request.parent(), 0));
        }
        if (registration.kind() == Kind.COMPOSITE) {
            CompositeRequest request = CompositeRequest.read(body, budget);
            ObjectChecks.timestamps(request.parent(), "/parent");
            return new Decoded(request, null, null, facts(request.parent(), request.children().size()));
        }
        DecoratorRequest request = DecoratorRequest.read(body, budget);
        ObjectChecks.timestamps(request.target(), "/object");
        return new Decoded(null, request, null, facts(request.target(), request.attachments().size()));
    }

    private HookAnswer dispatch(Registration<?> registration, Hook hook, Decoded request) {
        String parent = request.facts().parent();
        try {
            if (request.customize() != null) {
                return customize.call(registration, request.customize());
            }
            if (request.composite() != null) {
                return composite.call(registration, hook, request.composite());
            }
            return decorator.call(registration, hook, request.decorator());
        } catch (CallBudget.Refused e) {
            throw e;
        } catch (MalformedRequestException e) {
            return badRequest(e);
        } catch (TransientException e) {
            return retryLater(e);
        } catch (GuardViolation e) {
            LOG.warn("{} {} for {}: response refused: {}", registration.name(), hook.segment(), parent, logged(e.violations()));
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

    /**
     * The first {@value #VIOLATIONS_LOGGED} violations, each shortened, and how many more, as the problem body says it:
     * a line that stays short when an answer drops hundreds of children.
     */
    static String logged(List<String> violations) {
        List<String> first = violations.stream().limit(VIOLATIONS_LOGGED).map(HookEngine::shorten).toList();
        int more = violations.size() - first.size();
        return String.join("; ", first) + (more > 0 ? "; ... and " + more + " more" : "");
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

    private static HookAnswer retryLater(TransientException e) {
        long seconds = Math.max(1, divideRoundingUp(e.retryAfter()));
        Problem problem = Problem.of("retry-later", "Retry later", 429, shorten(String.valueOf(e.getMessage())));
        return HookAnswer.problem(problem, Map.of("Retry-After", Long.toString(seconds)));
    }

    private static long divideRoundingUp(Duration delay) {
        return delay.plusNanos(999_999_999L).getSeconds();
    }

    private static String paths(Registration<?> registration) {
        return registration.hooks().stream().map(Hook::segment).toList().toString();
    }

    private static String shorten(String text) {
        return text.length() <= MAX_DETAIL ? text : text.substring(0, MAX_DETAIL) + "…";
    }
}
