package dev.metahook.api;

/**
 * What a finalize hook answers: either wait (with the children as they should be during teardown)
 * or done, after which Metacontroller removes its finalizer and the parent goes away.
 */
public final class Finalization {
    private final SyncResult result;
    private final boolean done;

    private Finalization(SyncResult result, boolean done) {
        this.result = result;
        this.done = done;
    }

    /** Teardown is under way: these children for now, and call again. */
    public static Finalization waitFor(SyncResult result) {
        return new Finalization(result, false);
    }

    /**
     * Teardown is complete. The observed children are returned as they are, so that nothing is
     * deleted by this answer if the parent is not in fact going away (a finalize on opt-out).
     */
    public static Finalization done() {
        return new Finalization(SyncResult.keepingObserved(), true);
    }

    /** Teardown is complete, answering these children (for an opt-out that changes them). */
    public static Finalization done(SyncResult result) {
        return new Finalization(result, true);
    }

    public Finalization withStatus(Object status) {
        return new Finalization(result.withStatus(status), done);
    }

    public SyncResult result() {
        return result;
    }

    public boolean isDone() {
        return done;
    }
}
