package dev.metahook.internal.sim;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Metacontroller's work queue for one parent (client-go's rate-limiting queue): an event queues a
 * sync at once; {@code resyncAfterSeconds} and a 429's Retry-After queue one later; a failed sync is
 * retried after the default controller rate limiter's delay, 5 ms doubled with every failure in a
 * row up to 1000 s (its 10 per second bucket never binds for one parent), and a success forgets the
 * failures. The queue keeps one delayed entry per parent, the earliest; the informer's periodic
 * resync ({@code resyncPeriodSeconds}) queues a sync every period.
 */
final class WorkQueue {
    static final Duration BASE_DELAY = Duration.ofMillis(5);
    static final Duration MAX_DELAY = Duration.ofSeconds(1000);

    private final Duration resyncPeriod;
    private boolean queued;
    private Instant delayed;
    private boolean delayedRetry;
    private Instant nextPeriodic;
    private int failures;

    /** @param resyncPeriod the controller's periodic resync, or null */
    WorkQueue(Duration resyncPeriod) {
        this.resyncPeriod = resyncPeriod;
    }

    /** An event (the parent or a child written): sync as soon as a worker is free. */
    void add() {
        queued = true;
    }

    boolean queued() {
        return queued;
    }

    /** A worker takes the parent. */
    void take(Instant now) {
        queued = false;
        if (resyncPeriod != null && nextPeriodic == null) {
            nextPeriodic = now.plus(resyncPeriod);
        }
    }

    /** {@code AddAfter}: the earliest delayed entry wins; a retry marks it as one. */
    void addAfter(Instant now, Duration delay, boolean retry) {
        Instant at = now.plus(delay);
        if (delayed == null || at.isBefore(delayed)) {
            delayed = at;
            delayedRetry = retry;
        }
    }

    /** A failed sync: retried after 5 ms times 2 to the failures so far, at most 1000 s. */
    void addRateLimited(Instant now) {
        Duration delay = failures >= 40 ? MAX_DELAY : BASE_DELAY.multipliedBy(1L << Math.min(failures, 40));
        failures++;
        addAfter(now, delay.compareTo(MAX_DELAY) > 0 ? MAX_DELAY : delay, true);
    }

    /** A sync that succeeded. */
    void forget() {
        failures = 0;
    }

    /** The delayed retry, if the earliest delayed entry is one. */
    Optional<Instant> retry() {
        return delayedRetry ? Optional.ofNullable(delayed) : Optional.empty();
    }

    /** The next timed sync of any sort: a delayed entry or the periodic resync. */
    Optional<Instant> next() {
        Instant next = delayed;
        if (nextPeriodic != null && (next == null || nextPeriodic.isBefore(next))) {
            next = nextPeriodic;
        }
        return Optional.ofNullable(next);
    }

    /** Moves what is due at {@code now} into the queue. */
    void fire(Instant now) {
        if (delayed != null && !delayed.isAfter(now)) {
            delayed = null;
            delayedRetry = false;
            queued = true;
        }
        if (nextPeriodic != null && !nextPeriodic.isAfter(now)) {
            nextPeriodic = now.plus(resyncPeriod);
            queued = true;
        }
    }
}
