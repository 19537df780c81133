package dev.metahook.internal.sim;

import dev.metahook.api.ChildId;

/**
 * The API server's 409: an update carried a resourceVersion that is no longer the object's, because
 * another writer changed it since it was read. Metacontroller reports the sync as failed, writes the
 * parent's status anyway, and retries the parent after its rate limiter's delay.
 */
public final class Conflict extends RuntimeException {
    public Conflict(ChildId ref) {
        super("Operation cannot be fulfilled on " + Ids.text(ref) + ": the object has been modified; please apply your changes to the"
                + " latest version and try again");
    }
}
