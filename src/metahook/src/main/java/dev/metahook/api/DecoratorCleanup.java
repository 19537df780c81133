package dev.metahook.api;

/**
 * What a {@link DecoratorCleaner} answers while its target is going away or no longer selected: a
 * {@link Cleanup}, or one whose result changes the target's labels or annotations (a
 * {@link DecoratorResult}), such as taking away the label the decorator set.
 */
public sealed class DecoratorCleanup<S> permits Cleanup {
    private final DecoratorResult<S> result;
    private final boolean done;

    DecoratorCleanup(DecoratorResult<S> result, boolean done) {
        this.result = result;
        this.done = done;
    }

    /** Teardown is under way: these attachments, target changes and status for now, and call again. */
    public static <S> DecoratorCleanup<S> inProgress(DecoratorResult<S> result) {
        return new DecoratorCleanup<>(result, false);
    }

    /** Teardown is complete, answering these attachments, target changes and status. */
    public static <S> DecoratorCleanup<S> done(DecoratorResult<S> result) {
        return new DecoratorCleanup<>(result, true);
    }

    /** The same answer with the target's whole status. */
    public <T> DecoratorCleanup<T> withStatus(T status) {
        return new DecoratorCleanup<>(result.withStatus(status), done);
    }

    public DecoratorResult<S> result() {
        return result;
    }

    public boolean isDone() {
        return done;
    }
}
