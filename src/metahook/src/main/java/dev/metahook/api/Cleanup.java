package dev.metahook.api;

/**
 * What a {@link Cleaner} answers while its parent is going away: still working (with the objects as
 * they should be meanwhile), or done, after which Metacontroller removes its finalizer. Only a
 * cleanup can say done, so a sync can never let a parent go by mistake. A decorator whose cleanup
 * changes the target's labels or annotations is a {@link DecoratorCleaner} and answers a
 * {@link DecoratorCleanup} instead; neither answer is the other.
 */
public final class Cleanup<S> {
    private final Result<S> result;
    private final boolean done;

    private Cleanup(Result<S> result, boolean done) {
        this.result = result;
        this.done = done;
    }

    /** Teardown is under way: these objects and this status for now, and call again. */
    public static <S> Cleanup<S> inProgress(Result<S> result) {
        return new Cleanup<>(result, false);
    }

    /**
     * Teardown is complete. The observed objects are answered as they are, so that this answer deletes
     * nothing if the parent is not in fact going away (it stopped matching the controller's selector).
     */
    public static <S> Cleanup<S> done() {
        return new Cleanup<>(Result.keepingObserved(), true);
    }

    /** Teardown is complete, answering these objects and this status. */
    public static <S> Cleanup<S> done(Result<S> result) {
        return new Cleanup<>(result, true);
    }

    /** The same answer with the parent's whole status. */
    public <T> Cleanup<T> withStatus(T status) {
        return new Cleanup<>(result.withStatus(status), done);
    }

    public Result<S> result() {
        return result;
    }

    public boolean isDone() {
        return done;
    }
}
