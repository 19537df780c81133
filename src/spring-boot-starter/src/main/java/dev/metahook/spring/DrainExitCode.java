package dev.metahook.spring;

import dev.metahook.internal.server.Termination;

/**
 * The process's exit code after a SIGTERM, as the plain service's: {@code 0} when the drain answered every call it
 * found, {@code 1} when it cut one off, where the JVM would end with {@code 143}. Boot runs it as a shutdown handler,
 * once its shutdown hook has closed the application context (metahook's drain, then Boot's web server, then the
 * beans); it stops Boot's logging, as the handler it takes the place of would, and halts with the code. A server not
 * drained by the JVM's shutdown (a test's context, one the application closed itself) leaves the exit code alone.
 * It halts, where a service of {@code Metahook.serve} exits through {@code Termination}, because Boot's own
 * shutdown hook owns the signal here: the codes are the same.
 */
final class DrainExitCode implements Runnable {
    private final HookServerLifecycle server;
    private final Runnable stopLogging;

    DrainExitCode(HookServerLifecycle server, Runnable stopLogging) {
        this.server = server;
        this.stopLogging = stopLogging;
    }

    @Override
    public void run() {
        Boolean drained = server.drainedAtExit();
        if (drained == null) {
            return;
        }
        stopLogging.run();
        Runtime.getRuntime().halt(Termination.status(drained));
    }
}
