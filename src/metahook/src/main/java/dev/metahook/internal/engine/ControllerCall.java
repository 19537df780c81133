package dev.metahook.internal.engine;

import dev.metahook.api.Cleaner;
import dev.metahook.api.Cleanup;
import dev.metahook.api.Context;
import dev.metahook.api.Controllers.Registration;
import dev.metahook.api.DecoratorCleaner;
import dev.metahook.api.DecoratorCleanup;
import dev.metahook.api.HookResult;
import dev.metahook.api.Result;
import dev.metahook.api.StalledHandler;
import dev.metahook.api.TerminalException;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Optional;
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
    static <P extends HasMetadata> Answered run(Registration<P> registration, TypedObjects.Typed<P> typed, Context context,
                                                Function<TerminalException, Result<?>> fallback) {
        P parent = typed.object();
        TerminalException invalid = context.finalizing() ? typed.invalidStatus() : typed.invalid();
        try {
            if (invalid != null) {
                return stalled(registration, parent, context, invalid, fallback);
            }
            if (context.finalizing()) {
                return cleanup(registration, parent, context);
            }
            return new Answered(required(registration.sync(parent, context), "sync"), false, false);
        } catch (TerminalException e) {
            return stalled(registration, parent, context, e, fallback);
        }
    }

    /** The finalize call: a {@link Cleaner}'s, or else (the route is served only with one) a {@link DecoratorCleaner}'s. */
    private static <P extends HasMetadata> Answered cleanup(Registration<P> registration, P parent, Context context) {
        Optional<Cleaner<? super P, ?>> cleaner = registration.cleaner();
        if (cleaner.isPresent()) {
            Cleanup<?> cleanup = required(cleaner.get().cleanup(parent, context), "cleanup");
            return new Answered(cleanup.result(), cleanup.isDone(), false);
        }
        DecoratorCleanup<?> cleanup = required(registration.decoratorCleaner().orElseThrow().cleanup(parent, context), "cleanup");
        return new Answered(cleanup.result(), cleanup.isDone(), false);
    }

    private static <P extends HasMetadata> Answered stalled(Registration<P> registration, P parent, Context context,
                                                            TerminalException error, Function<TerminalException, Result<?>> fallback) {
        Optional<StalledHandler<? super P, ?>> handler = registration.stalledHandler();
        Result<?> result = handler.isPresent()
                ? required(handler.get().stalled(parent, context, error), "stalled")
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
