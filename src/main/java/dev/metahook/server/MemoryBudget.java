package dev.metahook.server;

import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * The heap that hook calls in flight may take: a call reserves what its body and the work on it
 * cost before a byte of the body is read, and gives it back once its answer is written. A call
 * that finds the budget spent waits briefly, then is refused, so a storm of large bodies meets
 * {@code 503} answers instead of an {@code OutOfMemoryError}.
 *
 * <p>The cost of a call is its body times {@link #WORK_FACTOR} (the body, the trees parsed from it,
 * the typed objects and the answer built from them; measured on 15 MiB bodies) plus
 * {@link #PER_CALL}. The budget is {@link #HEAP_SHARE} of the heap; the rest holds the service
 * itself, its caches and the collector's room to work. A tenth of it is kept for small calls, so
 * large bodies can never hold up a small one.
 */
final class MemoryBudget {
    static final int WORK_FACTOR = 6;
    static final long PER_CALL = 64 * 1024;
    static final double HEAP_SHARE = 0.5;
    static final double SMALL_SHARE = 0.1;
    /** A call that costs at most this is small: it tries the small calls' share first. */
    static final long SMALL_CALL = 1024 * 1024;
    private static final int KIB = 1024;

    private final Semaphore large;
    private final Semaphore small;
    private final int largeKib;

    MemoryBudget(long bytes) {
        int totalKib = (int) Math.min(Integer.MAX_VALUE, bytes / KIB);
        int smallKib = (int) (totalKib * SMALL_SHARE);
        this.largeKib = totalKib - smallKib;
        this.large = new Semaphore(largeKib);
        this.small = new Semaphore(smallKib);
    }

    /** The budget for this JVM: a share of the largest heap it may grow to. */
    static MemoryBudget ofHeap() {
        return new MemoryBudget((long) (Runtime.getRuntime().maxMemory() * HEAP_SHARE));
    }

    /** What a call with a body of this many bytes costs; never more than the whole budget, so any allowed body can pass alone. */
    long cost(long bodyBytes) {
        long bytes = PER_CALL + Math.multiplyExact(Math.max(bodyBytes, 0), (long) WORK_FACTOR);
        return Math.min(bytes, (long) largeKib * KIB);
    }

    /** Bytes not reserved now. */
    long available() {
        return ((long) large.availablePermits() + small.availablePermits()) * KIB;
    }

    /**
     * Reserves the cost of a body of {@code bodyBytes}, waiting up to {@code wait}; null when the
     * budget stayed spent.
     */
    Reservation reserve(long bodyBytes, Duration wait) throws InterruptedException {
        int kib = kib(cost(bodyBytes));
        if (cost(bodyBytes) <= SMALL_CALL && small.tryAcquire(kib)) {
            return new Reservation(kib, 0);
        }
        return large.tryAcquire(kib, wait.toNanos(), TimeUnit.NANOSECONDS) ? new Reservation(0, kib) : null;
    }

    private static int kib(long bytes) {
        return (int) Math.min(Integer.MAX_VALUE, (bytes + KIB - 1) / KIB);
    }

    /** What one call holds; grows while a body of unknown length arrives; given back once. */
    final class Reservation implements AutoCloseable {
        private int smallKib;
        private int largeKib;

        private Reservation(int smallKib, int largeKib) {
            this.smallKib = smallKib;
            this.largeKib = largeKib;
        }

        /** Holds enough for a body of {@code bodyBytes}, waiting up to {@code wait}; false when the budget stayed spent. */
        boolean growTo(long bodyBytes, Duration wait) throws InterruptedException {
            int more = kib(cost(bodyBytes)) - smallKib - largeKib;
            if (more <= 0) {
                return true;
            }
            if (!large.tryAcquire(more, wait.toNanos(), TimeUnit.NANOSECONDS)) {
                return false;
            }
            largeKib += more;
            return true;
        }

        /** The bytes held. */
        long bytes() {
            return ((long) smallKib + largeKib) * KIB;
        }

        @Override
        public synchronized void close() {
            small.release(smallKib);
            large.release(largeKib);
            smallKib = 0;
            largeKib = 0;
        }
    }
}
