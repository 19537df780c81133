package dev.metahook.internal.engine;

import dev.metahook.api.Cleaner;
import dev.metahook.api.Cleanup;
import dev.metahook.api.CompositeController;
import dev.metahook.api.Context;
import dev.metahook.api.Controllers.Kind;
import dev.metahook.api.Controllers.Registration;
import dev.metahook.api.DecoratorCleaner;
import dev.metahook.api.DecoratorCleanup;
import dev.metahook.api.DecoratorController;
import dev.metahook.api.HookResult;
import dev.metahook.api.Result;
import dev.metahook.api.StalledHandler;
import dev.metahook.api.TerminalException;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.function.Function;

/**
 * Calls sync, cleanup or the stalled answer of one controller by the capabilities it has: a finalize
 * call goes to its {@link Cleaner} (or a decorator's {@link DecoratorCleaner}); an invalid spec or status, or a {@link TerminalException}, to its
 * {@link StalledHandler}, or to the engine's default for its kind.
 */
final class ControllerCall {
    private ControllerCall() {
    }

    /**
     * What the controller answered, whether a cleanup said done, and whether it took the stalled path. A
     * composite's answer is a {@link Result} by the types of its hooks; only a decorator's may carry
     * target changes. The one word logged and counted for the call ({@link HookAnswer#outcome()}) is
     * taken from it, for either kind.
     */
    record Answered(HookResult<?> result, boolean done, boolean stalled) {

        /** Whether Metacontroller is told to remove its finalizer: a cleanup said done, and not on the stalled path. */
        boolean finalized() {
            return done && !stalled;
        }

        /** The call's outcome word: {@code stalled}, {@code finalized}, {@code finalizing} or {@code synced}. */
        String outcome(boolean finalizing) {
            return stalled ? "stalled" : finalizing ? (finalized() ? "finalized" : "finalizing") : "synced";
        }
    }

    /**
     * A finalize call goes to cleanup with or without a readable spec (a teardown must not wait on an
     * edit), but not without the status it may have recorded its progress in.
     *
     * @param typed the parent, and why its spec or status had to be left out
     * @param fallback the stalled answer when the controller has no {@link StalledHandler}
     */
    @SuppressWarnings("unchecked")
    static Answered run(Registration registration, TypedObjects.Typed<? extends HasMetadata> typed, Context context,
                       Function<TerminalException, Result<?>> fallback) {
        Object controller = registration.controller();
        HasMetadata parent = typed.object();
        TerminalException invalid = context.finalizing() ? typed.invalidStatus() : typed.invalid();
        try {
            if (invalid != null) {
                return stalled(controller, parent, context, invalid, fallback);
            }
            if (context.finalizing()) {
                if (controller instanceof Cleaner<?, ?> cleaner) {
                    Cleanup<?> cleanup = required(((Cleaner<HasMetadata, ?>) cleaner).cleanup(parent, context), "cleanup");
                    return new Answered(cleanup.result(), cleanup.isDone(), false);
                }
                DecoratorCleanup<?> cleanup = required(((DecoratorCleaner<HasMetadata, ?>) controller).cleanup(parent, context), "cleanup");
                return new Answered(cleanup.result(), cleanup.isDone(), false);
            }
            HookResult<?> result = registration.kind() == Kind.COMPOSITE
                    ? ((CompositeController<HasMetadata, ?>) controller).sync(parent, context)
                    : ((DecoratorController<HasMetadata, ?>) controller).sync(parent, context);
            return new Answered(required(result, "sync"), false, false);
        } catch (TerminalException e) {
            return stalled(controller, parent, context, e, fallback);
        }
    }

    @SuppressWarnings("unchecked")
    private static Answered stalled(Object controller, HasMetadata parent, Context context, TerminalException error,
                                   Function<TerminalException, Result<?>> fallback) {
        Result<?> result = controller instanceof StalledHandler<?, ?> handler
                ? required(((StalledHandler<HasMetadata, ?>) handler).stalled(parent, context, error), "stalled")
                : fallback.apply(error);
        return new Answered(result, false, true);
    }

    private static <T> T required(T answer, String method) {
        if (answer == null) {
            throw new IllegalStateException(method + " returned null");
        }
        return answer;
    }
}
