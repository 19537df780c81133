package dev.metahook.internal.wire;

/**
 * The memory one hook call may take while its request is read and answered, as the call sees it. Once
 * the byte scanner has checked the whole body (building nothing but the places of its parts), the call's
 * work is {@linkplain #admit admitted}: what its trees (the parent, the controller, the object of a
 * decorator) and its observed objects' places cost, before any of them is built. Then each observed
 * object (children, attachments, related objects) {@linkplain #claim claims} its own cost
 * ({@link #costOf}, counted by the scanner as it passes over the object's bytes, {@link JsonCensus}) the
 * first time its tree or typed form is built, from inside decoding or from inside a controller's read:
 * a controller that reads two of a thousand children pays for two.
 *
 * <p>A refusal ({@link Refused}) sticks: every later claim is refused too and {@link #refusal()} keeps
 * it, so a controller that catches the exception cannot answer as if the object had been read; the
 * engine checks {@link #refusal()} once, when the call is done, and answers it instead.
 *
 * <p>Implementations: {@link #UNLIMITED}, which counts and refuses nothing (tests, the simulator, the
 * test kit, the warm-up), and the server's reservation of its memory budget.
 */
public interface CallBudget {
    /** Counts nothing and refuses nothing: a request read outside the service. */
    CallBudget UNLIMITED = new Unlimited();

    /** The budget of {@link #UNLIMITED}; a measurement may extend it to see the work a call is admitted for. */
    class Unlimited implements CallBudget {
        @Override
        public void admit(Work work) {
        }

        @Override
        public long costOf(JsonCensus object) {
            return 0;
        }

        @Override
        public void claim(long bytes) {
        }

        @Override
        public Refused refusal() {
            return null;
        }
    }

    /**
     * Holds what the call's work costs before any of it is built; throws {@link Refused} when it cannot
     * be held (for now, or ever).
     */
    void admit(Work work);

    /** What building an observed object of this census costs; 0 when nothing is counted (nothing is claimed then). */
    long costOf(JsonCensus object);

    /**
     * Holds {@code bytes} more, what building an observed object costs ({@link #costOf}), without waiting;
     * throws {@link Refused} when they cannot be held, and for every claim after a refusal.
     */
    void claim(long bytes);

    /** Why the work or a claim was refused, or null: a refused call must not be answered as if it had been covered. */
    Refused refusal();

    /**
     * What a request's work takes before its observed objects are built: the body's bytes, the census
     * of the fields it reads as trees, and its observed objects and their groups (each held as a place
     * in the body, its key as a string), with the bytes of their keys.
     */
    record Work(long bodyBytes, JsonCensus trees, long observed, long groups, long keyBytes) {
    }

    /** Work or a claim the budget could not cover: for now ({@link #fitsLater()}, 503), or ever (413); the message says which and why. */
    final class Refused extends RuntimeException {
        private final boolean fitsLater;
        private final long bytes;

        private Refused(boolean fitsLater, long bytes, String message) {
            super(message, null, false, false);
            this.fitsLater = fitsLater;
            this.bytes = bytes;
        }

        /** The observed objects' claims, {@code claimed} bytes with the refused one, do not fit the budget now. */
        public static Refused claimLater(long claimed) {
            return new Refused(true, claimed, "the memory budget cannot hold the observed objects this call reads now ("
                    + claimed + " bytes claimed)");
        }

        /** The observed objects' claims, {@code claimed} bytes with the refused one, are more than any call may hold. */
        public static Refused claimNever(long claimed) {
            return new Refused(false, claimed, "the observed objects this call reads would take about " + mib(claimed)
                    + " MiB of heap, more than this service gives a call (see docs/production.md, memory model)");
        }

        /** The call (its body, or the work on it) does not fit the budget now: answered when it has room again. */
        public static Refused later(long bytes) {
            return new Refused(true, bytes, "the memory budget cannot hold this call now (" + bytes + " bytes)");
        }

        /** The call (its body, or the work on it) is more than any call may hold; {@code detail} says so to the client. */
        public static Refused never(long bytes, String detail) {
            return new Refused(false, bytes, detail);
        }

        /** Whether the call could be answered when the budget has room again (503), or never (413). */
        public boolean fitsLater() {
            return fitsLater;
        }

        /** The bytes that were refused: the call's, or what its claims came to with the refused one. */
        public long bytes() {
            return bytes;
        }

        /** {@code bytes} in MiB, rounded up. */
        public static long mib(long bytes) {
            return (bytes + (1 << 20) - 1) >> 20;
        }
    }
}
