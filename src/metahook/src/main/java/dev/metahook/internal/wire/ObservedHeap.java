package dev.metahook.internal.wire;

import java.util.function.Supplier;
import java.util.function.ToLongFunction;

/**
 * The heap one request may take while it is read and answered, in two steps. Once the byte scanner has
 * checked the whole body (building nothing but the places of its parts), the request's work is
 * {@linkplain #admit admitted}: what its trees (the parent, the controller, the object of a decorator)
 * and its observed objects' places cost, before any of them is built. Then each observed object
 * (children, attachments, related objects) claims its own cost the first time its tree or typed form is
 * built: a controller that reads two of a thousand children pays for two. What an object costs is
 * counted by the scanner as it passes over the object's bytes ({@link JsonCensus}), before the admission.
 *
 * <p>A refusal ({@link HeapRefused}) sticks: every later claim is refused too and {@link #refused()}
 * stays true, so a controller that catches the exception cannot answer as if the object had been read.
 */
public final class ObservedHeap {
    /** Where the claims go: true when the bytes are now held for the call. */
    @FunctionalInterface
    public interface Allowance {
        boolean take(long bytes);
    }

    /** Admits a request's work before anything is built: the bytes it now holds, or a {@link HeapRefused}. */
    @FunctionalInterface
    public interface Admission {
        long admit(Work work);
    }

    /**
     * What a request's work takes before its observed objects are built: the body's bytes, the census
     * of the fields it reads as trees, and its observed objects and their groups (each held as a place
     * in the body, its key as a string), with the bytes of their keys.
     */
    public record Work(long bodyBytes, JsonCensus trees, long observed, long groups, long keyBytes) {
    }

    /** No limit: a request read outside the service (tests, the simulator, the test kit). */
    public static final ObservedHeap UNLIMITED = new ObservedHeap(null, null, null, Long.MAX_VALUE);

    private final Admission admission;
    /** What building an object costs, from its census; null when nothing is counted. */
    private final ToLongFunction<JsonCensus> cost;
    private final Allowance allowance;
    private long most;
    private long claimed;
    private volatile HeapRefused refusal;

    private ObservedHeap(Admission admission, ToLongFunction<JsonCensus> cost, Allowance allowance, long most) {
        this.admission = admission;
        this.cost = cost;
        this.allowance = allowance;
        this.most = most;
    }

    /**
     * The heap of one request: its work admitted by {@code admission}, then each observed object
     * costed by {@code cost} and claimed from {@code allowance}; {@code most} is what the call could
     * ever hold, so a claim beyond it (less what the admission held) is refused for good.
     */
    public static ObservedHeap of(Admission admission, ToLongFunction<JsonCensus> cost, Allowance allowance, long most) {
        return new ObservedHeap(admission, cost, allowance, most);
    }

    /** Admits the request's work, before anything of it is built; throws {@link HeapRefused} when it cannot be held. */
    void admit(Supplier<Work> work) {
        if (admission == null) {
            return;
        }
        try {
            long held = admission.admit(work.get());
            synchronized (this) {
                most -= held;
            }
        } catch (HeapRefused e) {
            refusal = e;
            throw e;
        }
    }

    /** What building an object of this census costs; 0 when nothing is counted. */
    long costOf(JsonCensus object) {
        return cost == null ? 0 : cost.applyAsLong(object);
    }

    /** Claims {@code bytes}, what building an observed object costs ({@link #costOf}); throws {@link HeapRefused} when they cannot be held. */
    void claim(long bytes) {
        if (cost != null) {
            claimCounted(bytes);
        }
    }

    private synchronized void claimCounted(long bytes) {
        if (refusal != null) {
            throw refusal;
        }
        claimed += bytes;
        if (claimed > most || !allowance.take(bytes)) {
            refusal = claimed > most ? HeapRefused.never(claimed) : HeapRefused.later(claimed);
            throw refusal;
        }
    }

    /** Whether nothing is ever refused, or counted. */
    boolean unlimited() {
        return cost == null;
    }

    /** Whether the work or a claim was refused: the call must not be answered as if it had been covered. */
    public boolean refused() {
        return refusal != null;
    }

    /** The refusal, or null. */
    public HeapRefused refusal() {
        return refusal;
    }

    /** Work or a claim the budget could not cover: for now ({@link #fitsLater()}), or ever. */
    public static final class HeapRefused extends RuntimeException {
        private final boolean fitsLater;
        private final long claimed;

        private HeapRefused(boolean fitsLater, long claimed, String message) {
            super(message, null, false, false);
            this.fitsLater = fitsLater;
            this.claimed = claimed;
        }

        /** The observed objects' claims, {@code claimed} bytes with the refused one, do not fit the budget now. */
        static HeapRefused later(long claimed) {
            return new HeapRefused(true, claimed, "the memory budget cannot hold the observed objects this call reads now ("
                    + claimed + " bytes claimed)");
        }

        /** The observed objects' claims, {@code claimed} bytes with the refused one, are more than any call may hold. */
        static HeapRefused never(long claimed) {
            return new HeapRefused(false, claimed, "the observed objects this call reads would take about " + mib(claimed)
                    + " MiB of heap, more than this service gives a call (see docs/production.md, memory model)");
        }

        /** The work of a request does not fit the budget now: answered when it has room again. */
        public static HeapRefused workLater(long bytes) {
            return new HeapRefused(true, bytes, "the memory budget cannot hold this call's work now (" + bytes + " bytes)");
        }

        /** The work of a request is more than any call may hold; {@code detail} says so to the client. */
        public static HeapRefused workNever(long bytes, String detail) {
            return new HeapRefused(false, bytes, detail);
        }

        /** Whether the call could be answered when the budget has room again (503), or never (413). */
        public boolean fitsLater() {
            return fitsLater;
        }

        /** What the call had claimed, the refused claim included. */
        public long claimed() {
            return claimed;
        }

        private static long mib(long bytes) {
            return (bytes + (1 << 20) - 1) >> 20;
        }
    }
}
