package dev.metahook.internal.server;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * How long each phase of a start took, in the order they ran, for the start log line: an operator
 * whose pod is slow to be ready sees which phase the time went to. Not thread-safe: one start marks
 * its phases from the thread that starts the server.
 */
public final class StartPhases {
    private final List<String> phases = new ArrayList<>();
    private long last = System.nanoTime();

    /** The phase that ran since the previous mark (or since this was made) is over. */
    public void done(String phase) {
        long now = System.nanoTime();
        phases.add(phase + " " + TimeUnit.NANOSECONDS.toMillis(now - last) + " ms");
        last = now;
    }

    /** The phases in order, e.g. {@code engine 3 ms, metrics 41 ms, HTTP listener 212 ms, warm-up 180 ms}. */
    @Override
    public String toString() {
        return String.join(", ", phases);
    }
}
