package dev.metahook.internal.server;

import dev.metahook.internal.wire.JsonCensus;
import dev.metahook.internal.wire.CallBudget;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * The heap that hook calls in flight may take, and what each call costs. A call holds its share from
 * before the first byte of its body is read until its answer is written, in three steps:
 * <ol>
 * <li><b>reading</b>: the body's own bytes ({@link #CHUNKED_READ} times them while a chunked body is
 * gathered), from the reading share ({@link #READING_SHARE} of the budget); a body larger than that
 * share is refused ({@code 413}) before it is read;</li>
 * <li><b>working</b>: once the body is in memory and scanned, the call's work
 * ({@link CallBudget#admit}): what it takes {@linkplain #upFront up front}, that is the body, the
 * trees of the fields it parses (from their census, {@link JsonCensus}: counted by the scan, nothing
 * built) and the places of its observed objects, but not what those objects build. It is taken from
 * the working share, waiting up to the admission wait, and the reading share given back; a call whose
 * work costs more than the whole working share is refused ({@code 413}) without waiting;</li>
 * <li><b>claiming</b>: each observed object claims {@linkplain #objectCost what building it costs}
 * when the engine first builds it ({@link CallBudget#claim}), without waiting: refused ({@code 503})
 * when the budget has no room now, ({@code 413}) when the call's claims come to more than any call
 * may hold.</li>
 * </ol>
 * A call that waits for the working share holds only reading bytes, and a call that holds working
 * bytes waits for nothing, so the two never block each other: calls are refused ({@code 503}) when the
 * budget stays spent, never stuck. A call with a declared body whose step costs at most {@link #SMALL_CALL}
 * (and an eighth of the small share) takes it from a share of its own ({@link #SMALL_SHARE}), or from
 * the large shares when they have room at once, and otherwise waits for its own share behind other
 * small calls only, so large calls never hold up a small one.
 *
 * <p>{@link #cost} is what a whole call costs with every observed object read: the footprint
 * measurements compare it with what a call really needs. The measurements behind the constants are in
 * docs/production.md ({@code src/bench/footprint} measures them).
 */
final class MemoryBudget {
    /** What any call holds besides its body and its trees: buffers, the request, the context. */
    static final long PER_CALL = 64 * 1024;
    /** How many times a call may build the nodes of its body's tree at once: the tree, and the tree of what the answer copies from it. */
    static final int NODE_COPIES = 2;
    /** What each JSON object of the body may cost besides its tree nodes: a typed Java object and the map of its unknown fields. */
    static final int TYPED_OBJECT = 136;
    /** What each array item may cost besides its slot while the array grows: the list's old and new arrays side by side. */
    static final int ITEM_GROWTH = 4;
    /** How many times the characters of its strings: the tree's strings are shared by typed copies; the answer holds them again as bytes. */
    static final int STRING_COPIES = 2;
    /** How many times the largest string is held besides, while it is parsed: the parser's buffer of chars, then the string built from it. */
    static final int LARGEST_STRING_COPIES = 3;
    /** How many trees of a JSON text held in a string (a last-applied annotation) a call may build: parsed, its typed form, the fitted answer. */
    static final int EMBEDDED_COPIES = 3;
    /** Bytes held per body byte while a chunked body is gathered: its chunks, and the array they are joined into. */
    static final int CHUNKED_READ = 2;
    static final double HEAP_SHARE = 0.6;
    static final double SMALL_SHARE = 0.05;
    static final double READING_SHARE = 0.25;
    /** A call that costs at most this (and at most an eighth of the small share) is small: it takes the small calls' share. */
    static final long SMALL_CALL = 1024 * 1024;
    /**
     * What each observed object costs a call that never reads it: the object, its key as a string (but
     * its characters), its entry in its group's map, its place in the scan, and the engine's own look at
     * its identity (the guards' set of observed children). Measured: a sync with 81,509 tiny ConfigMaps
     * it does not read needs 37 MiB of heap ({@code src/bench/footprint}); this charges it 37.8 MiB up front.
     */
    static final long OBSERVED_OBJECT = 256;
    /** What each group of observed objects is held as: its key, its map and its entry in the map of groups, its pointer (but the characters). */
    static final long GROUP = 320;
    /** The least a call claims at once when its observed objects are built, so a call that reads many small ones claims rarely. */
    static final long CLAIM_STEP = 64 * 1024;
    private static final int KIB = 1024;

    private final Semaphore small;
    private final Semaphore reading;
    private final Semaphore working;
    private final int smallKib;
    private final int readingKib;
    private final int workingKib;
    private final int smallCallKib;

    MemoryBudget(long bytes) {
        int totalKib = (int) Math.min(Integer.MAX_VALUE, bytes / KIB);
        this.smallKib = (int) (totalKib * SMALL_SHARE);
        this.readingKib = (int) (totalKib * READING_SHARE);
        this.workingKib = totalKib - smallKib - readingKib;
        this.smallCallKib = Math.min(kib(SMALL_CALL), smallKib / 8);
        this.small = new Semaphore(smallKib, true);
        this.reading = new Semaphore(readingKib, true);
        this.working = new Semaphore(workingKib, true);
    }

    /** The budget for this JVM: a share of the largest heap it may grow to. */
    static MemoryBudget ofHeap() {
        return new MemoryBudget((long) (Runtime.getRuntime().maxMemory() * HEAP_SHARE));
    }

    /** What a whole call with this body costs at its peak, from the body's census, every observed object read. */
    static long cost(JsonCensus census) {
        return PER_CALL + census.bytes() + LARGEST_STRING_COPIES * census.largestString() + treeCost(census);
    }

    /**
     * What a call takes up front, once its body is scanned: the body, the trees of the fields it parses,
     * and the places of its observed objects (each made an object with its key, in its group's map),
     * but not what those objects build, which each claims when it is built ({@link #objectCost}).
     */
    static long upFront(CallBudget.Work work) {
        JsonCensus trees = work.trees();
        return PER_CALL + work.bodyBytes() + LARGEST_STRING_COPIES * trees.largestString() + treeCost(trees)
                + OBSERVED_OBJECT * work.observed() + GROUP * work.groups() + STRING_COPIES * work.keyBytes();
    }

    /** What building one observed object of this census costs: its trees and typed copies, and the parser's copies of its largest string. */
    static long objectCost(JsonCensus object) {
        return treeCost(object) + LARGEST_STRING_COPIES * object.largestString();
    }

    /** What the trees and typed copies of this JSON text cost: its bytes are in the body already. */
    static long treeCost(JsonCensus census) {
        return NODE_COPIES * census.nodeBytes() + TYPED_OBJECT * census.objects() + ITEM_GROWTH * census.items()
                + STRING_COPIES * census.stringBytes() + EMBEDDED_COPIES * census.embeddedTreeBytes();
    }

    /** The largest body that can be read: a larger one is refused before it is. */
    long largestBody() {
        return (long) readingKib * KIB - PER_CALL;
    }

    /** The largest chunked body that can be read (it takes {@link #CHUNKED_READ} times its bytes while it is gathered). */
    long largestChunkedBody() {
        return largestBody() / CHUNKED_READ;
    }

    /** The largest call that can be answered: one that costs more is refused. */
    long largestCall() {
        return (long) workingKib * KIB;
    }

    /** Bytes not reserved now. */
    long available() {
        return ((long) small.availablePermits() + reading.availablePermits() + working.availablePermits()) * KIB;
    }

    /**
     * Reserves what reading a body of {@code bodyBytes} holds (-1: chunked, grown as it arrives), waiting
     * up to {@code wait}; null when the budget stayed spent.
     */
    Reservation reserve(long bodyBytes, Duration wait) throws InterruptedException {
        int kib = kib(PER_CALL + Math.max(bodyBytes, 0));
        if (kib <= smallCallKib && small.tryAcquire(kib)) {
            return new Reservation(kib, 0);
        }
        if (bodyBytes >= 0 && kib <= smallCallKib) {
            if (reading.tryAcquire(kib)) {
                return new Reservation(0, kib);
            }
            return small.tryAcquire(kib, wait.toNanos(), TimeUnit.NANOSECONDS) ? new Reservation(kib, 0) : null;
        }
        return reading.tryAcquire(kib, wait.toNanos(), TimeUnit.NANOSECONDS) ? new Reservation(0, kib) : null;
    }

    private static int kib(long bytes) {
        return (int) Math.min(Integer.MAX_VALUE, (bytes + KIB - 1) / KIB);
    }

    /**
     * What one call holds: reading bytes, then working bytes, then what its observed objects claim; given
     * back once. It is the call's {@link CallBudget}: its first refusal sticks.
     */
    final class Reservation implements CallBudget, AutoCloseable {
        private int smallHeld;
        private int readingHeld;
        private int workingHeld;
        /** Bytes claimed by {@link #more} and not used yet. */
        private long slack;
        /** What the admitted work and the claims since came to. */
        private long used;
        private volatile Refused refusal;

        private Reservation(int smallHeld, int readingHeld) {
            this.smallHeld = smallHeld;
            this.readingHeld = readingHeld;
        }

        /**
         * Holds enough to read {@code bodyBytes} of a chunked body, waiting up to {@code wait}; false when
         * the budget stayed spent or the body outgrew what any body may hold.
         */
        synchronized boolean growReading(long bodyBytes, Duration wait) throws InterruptedException {
            int more = kib(PER_CALL + CHUNKED_READ * bodyBytes) - smallHeld - readingHeld;
            if (more <= 0) {
                return true;
            }
            if (readingHeld + more > readingKib || !reading.tryAcquire(more, wait.toNanos(), TimeUnit.NANOSECONDS)) {
                return false;
            }
            readingHeld += more;
            return true;
        }

        /**
         * Holds {@code cost} for the work on the body read, waiting up to {@code wait}, and gives back
         * what reading held; false when the budget stayed spent (what reading held is kept until close).
         */
        synchronized boolean work(long cost, Duration wait) throws InterruptedException {
            int kib = kib(cost);
            if (kib > workingKib) {
                return false;
            }
            if (kib <= smallCallKib) {
                return workSmall(kib, wait);
            }
            if (working.tryAcquire(kib)) {
                return holdWorking(kib);
            }
            // It waits holding reading bytes only: a body read in the small share leaves it first, so small calls never wait behind it.
            return leaveSmall() && working.tryAcquire(kib, wait.toNanos(), TimeUnit.NANOSECONDS) && holdWorking(kib);
        }

        /** Moves what the call holds in the small share to the reading share, without waiting; false when the reading share has no room. */
        private boolean leaveSmall() {
            if (smallHeld == 0) {
                return true;
            }
            if (!reading.tryAcquire(smallHeld)) {
                return false;
            }
            small.release(smallHeld);
            readingHeld += smallHeld;
            smallHeld = 0;
            return true;
        }

        /** A small call works in the small share, or in the working share when it has room now, or waits for the small share. */
        private boolean workSmall(int kib, Duration wait) throws InterruptedException {
            int more = kib - smallHeld;
            if (more <= 0 || small.tryAcquire(more)) {
                return holdSmall(more);
            }
            if (working.tryAcquire(kib)) {
                return holdWorking(kib);
            }
            return small.tryAcquire(more, wait.toNanos(), TimeUnit.NANOSECONDS) && holdSmall(more);
        }

        private boolean holdSmall(int more) {
            smallHeld += Math.max(more, 0);
            reading.release(readingHeld);
            readingHeld = 0;
            return true;
        }

        private boolean holdWorking(int kib) {
            workingHeld = kib;
            small.release(smallHeld);
            reading.release(readingHeld);
            smallHeld = 0;
            readingHeld = 0;
            return true;
        }

        /**
         * Holds {@code bytes} more for the work admitted (an observed object being built), without
         * waiting: from the small share while a small call stays small, else from the working share;
         * false when neither has room now. At least {@link #CLAIM_STEP} is taken at a time.
         */
        synchronized boolean more(long bytes) {
            if (bytes <= slack) {
                slack -= bytes;
                return true;
            }
            long need = bytes - slack;
            int step = kib(Math.max(need, CLAIM_STEP));
            int kib = kib(need);
            if (takeMore(step)) {
                slack = (long) step * KIB - need;
                return true;
            }
            if (step > kib && takeMore(kib)) {
                slack = (long) kib * KIB - need;
                return true;
            }
            return false;
        }

        private boolean takeMore(int kib) {
            if (workingHeld == 0 && smallHeld + kib <= smallCallKib && small.tryAcquire(kib)) {
                smallHeld += kib;
                return true;
            }
            if (working.tryAcquire(kib)) {
                workingHeld += kib;
                return true;
            }
            return false;
        }

        @Override
        public synchronized void admit(Work work) {
            long cost = upFront(work);
            used = cost;
            if (cost > largestCall()) {
                throw refuse(Refused.never(cost, "answering this body would take about " + Refused.mib(cost) + " MiB of heap ("
                        + (work.trees().values() + work.observed()) + " JSON values built, " + work.bodyBytes() + " bytes); this service gives"
                        + " a call at most " + Refused.mib(largestCall()) + " MiB (see docs/production.md, memory model)"));
            }
            try {
                if (!work(cost, BodyIntake.ADMISSION_WAIT)) {
                    throw refuse(Refused.later(cost));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw refuse(Refused.later(cost));
            }
        }

        @Override
        public long costOf(JsonCensus object) {
            return objectCost(object);
        }

        @Override
        public synchronized void claim(long bytes) {
            if (refusal != null) {
                throw refusal;
            }
            used += bytes;
            if (used > largestCall()) {
                throw refuse(Refused.claimNever(used));
            }
            if (!more(bytes)) {
                // What it holds and this claim are more than the call could hold alone: no later try can do better.
                throw refuse(bytes() + bytes > largestCall() ? Refused.claimNever(used) : Refused.claimLater(used));
            }
        }

        @Override
        public Refused refusal() {
            return refusal;
        }

        private Refused refuse(Refused refused) {
            refusal = refused;
            return refused;
        }

        /** The bytes held. */
        synchronized long bytes() {
            return ((long) smallHeld + readingHeld + workingHeld) * KIB;
        }

        @Override
        public synchronized void close() {
            small.release(smallHeld);
            reading.release(readingHeld);
            working.release(workingHeld);
            smallHeld = 0;
            readingHeld = 0;
            workingHeld = 0;
            slack = 0;
        }
    }
}
