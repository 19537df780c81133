package dev.metahook.wire;


/**
 * The heap the observed objects of one request (children, attachments, related objects) may take,
 * claimed one object at a time when its tree or typed form is first built: a controller that reads two
 * of a thousand children pays for two. What each object costs comes from the census of the body
 * ({@link JsonCensus.Request#observed()}), where the object starts; an object the census did not see (a body
 * read without one) is counted on its own bytes when it is claimed.
 *
 * <p>An allowance that cannot cover a claim refuses it with {@link HeapRefused}, and the refusal sticks:
 * every later claim is refused too and {@link #refused()} stays true, so a controller that catches the
 * exception cannot answer as if the object had been read.
 */
public final class ObservedHeap {
    /** Where the claims go: true when the bytes are now held for the call. */
    @FunctionalInterface
    public interface Allowance {
        boolean take(long bytes);
    }

    /** No limit: a request read outside the service (tests, the simulator, the test kit). */
    public static final ObservedHeap UNLIMITED = new ObservedHeap(null, bytes -> true, Long.MAX_VALUE);

    /** What each observed object costs; null when nothing is counted. */
    private final JsonCensus.Observed observed;
    private final Allowance allowance;
    private final long most;
    private long claimed;
    private volatile HeapRefused refusal;

    private ObservedHeap(JsonCensus.Observed observed, Allowance allowance, long most) {
        this.observed = observed;
        this.allowance = allowance;
        this.most = most;
    }

    /**
     * The heap of one request's observed objects, as its census costs them, claimed from {@code allowance};
     * {@code most} is what the whole allowance could ever hold, so a claim beyond it is refused for good.
     */
    public static ObservedHeap of(JsonCensus.Observed observed, Allowance allowance, long most) {
        return new ObservedHeap(observed, allowance, most);
    }

    /** Claims what building the object at {@code source[offset, offset + length)} takes; throws {@link HeapRefused} when it cannot be held. */
    void claim(byte[] source, int offset, int length) {
        if (observed != null) {
            claimCovered(source, offset, length);
        }
    }

    private synchronized void claimCovered(byte[] source, int offset, int length) {
        if (refusal != null) {
            throw refusal;
        }
        long bytes = costOf(source, offset, length);
        claimed += bytes;
        if (claimed > most || !allowance.take(bytes)) {
            refusal = new HeapRefused(claimed <= most, claimed);
            throw refusal;
        }
    }

    private long costOf(byte[] source, int offset, int length) {
        long known = observed.costAt(offset);
        return known >= 0 ? known : observed.cost().applyAsLong(JsonCensus.of(source, offset, offset + length));
    }

    /** Whether nothing is ever refused, or counted. */
    boolean unlimited() {
        return observed == null;
    }

    /** Whether a claim was refused: the call must not be answered as if it had been covered. */
    public boolean refused() {
        return refusal != null;
    }

    /** The refusal, or null. */
    public HeapRefused refusal() {
        return refusal;
    }

    /** A claim the allowance could not cover: for now ({@link #fitsLater()}), or ever. */
    public static final class HeapRefused extends RuntimeException {
        private final boolean fitsLater;
        private final long claimed;

        HeapRefused(boolean fitsLater, long claimed) {
            super("the memory budget cannot hold the observed objects this call reads (" + claimed + " bytes claimed)", null, false, false);
            this.fitsLater = fitsLater;
            this.claimed = claimed;
        }

        /** Whether the call could be answered when the budget has room again (503), or never (413). */
        public boolean fitsLater() {
            return fitsLater;
        }

        /** What the call's observed objects had claimed, the refused claim included. */
        public long claimed() {
            return claimed;
        }
    }
}
