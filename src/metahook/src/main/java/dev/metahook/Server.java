package dev.metahook;

import io.micrometer.core.instrument.MeterRegistry;

/** A running service, as {@link Metahook#serve} returns it: where it listens, its meters, and how to stop it. */
public interface Server extends AutoCloseable {
    /** The port the hooks are served on (the one chosen when the options said 0). */
    int port();

    /** The port of the plain-HTTP listener for health and metrics only, or -1 when none was asked for (they are on {@link #port()}). */
    int managementPort();

    /** The registry {@code /metrics} exposes: a controller's own meters go here. */
    MeterRegistry meterRegistry();

    /**
     * Stops gracefully: not ready any more, calls in flight finish within the shutdown timeout, then the listener
     * closes. Returns whether every call accepted was answered.
     */
    boolean shutdown();

    /** {@link #shutdown()}. */
    @Override
    void close();
}
