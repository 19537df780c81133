package dev.metahook.api;

/**
 * What a {@link DecoratorCleaner} answers while its target is going away or no longer selected: as a
 * {@link Cleanup}, but its result may be a {@link DecoratorResult} that changes the target's labels or
 * annotations, such as taking away the label the decorator set. A {@code Cleanup} and a
 * {@code DecoratorCleanup} are siblings: neither is the other.
 */
public final class DecoratorCleanup<S> {
    private final HookResult<S> result;
    private final boolean done;

    private DecoratorCleanup(HookResult<S> result, boolean done) {
        this.result = result;
        this.done = done;
    }

    /** Teardown is under way: these attachments, target changes and status for now, and call again. */
    public static <S> DecoratorCleanup<S> inProgress(HookResult<S> result) {
        return new DecoratorCleanup<>(result, false);
    }

    /**
     * Teardown is complete. The observed attachments are answered as they are and the target is left as
     * it is, so that this answer deletes nothing if the target is not in fact going away.
     */
    public static <S> DecoratorCleanup<S> done() {
        return new DecoratorCleanup<>(Result.keepingObserved(), true);
    }

    /** Teardown is complete, answering these attachments, target changes and status. */
    public static <S> DecoratorCleanup<S> done(HookResult<S> result) {
        return new DecoratorCleanup<>(result, true);
    }

    /** The same answer with the target's whole status. */
    public <T> DecoratorCleanup<T> withStatus(T status) {
        return new DecoratorCleanup<>(result.withStatus(status), done);
    }

    /** A {@link Result} or a {@link DecoratorResult}, as the cleanup gave it. */
    public HookResult<S> result() {
        return result;
    }

    public boolean isDone() {
        return done;
    }
}
