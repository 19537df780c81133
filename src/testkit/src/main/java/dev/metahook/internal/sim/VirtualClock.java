package dev.metahook.internal.sim;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * The simulation's time: it stands still until the simulation waits for something (a resync, a
 * retry after an error, a workload's next step) and then jumps to it. Nothing sleeps, so a life
 * that spans simulated minutes runs in milliseconds and the same way every time.
 */
public final class VirtualClock extends Clock {
    private Instant now;

    public VirtualClock(Instant start) {
        this.now = start;
    }

    /** Jumps forward; never backward. */
    public void advance(Duration duration) {
        if (duration.isNegative()) {
            throw new IllegalArgumentException("time does not go back: " + duration);
        }
        now = now.plus(duration);
    }

    /** Jumps to an instant, when it is later than now. */
    public void advanceTo(Instant instant) {
        if (instant.isAfter(now)) {
            now = instant;
        }
    }

    @Override
    public Instant instant() {
        return now;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("the simulation's clock is UTC");
    }
}
