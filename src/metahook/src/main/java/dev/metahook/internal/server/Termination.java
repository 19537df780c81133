package dev.metahook.internal.server;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a process serving hooks ends when it is told to stop (SIGTERM, as Kubernetes stops a pod; SIGINT, as a
 * terminal does): its servers drain, then it exits {@link #CLEAN} when every request that arrived was answered
 * and {@link #UNANSWERED} when one was not. The JVM's own handler would exit 143 (130) whatever the drain did,
 * and no shutdown hook can change that status once the JVM is exiting; so the signal is taken here: the drains
 * run first, then {@link System#exit} runs every shutdown hook (the application's too) with the status they
 * decided. Where the JVM does not let the signal be taken ({@code -Xrs}, or {@code jdk.unsupported} not in the
 * module graph), the JVM's handling stays and the shutdown hooks still drain.
 */
public final class Termination {
    /** Exit status of a drain that answered every request that arrived. */
    public static final int CLEAN = 0;
    /** Exit status of a drain that left a request that arrived unanswered. */
    public static final int UNANSWERED = 1;

    private static final Logger LOG = LoggerFactory.getLogger(Termination.class);
    private static final Set<BooleanSupplier> DRAINS = ConcurrentHashMap.newKeySet();
    private static volatile boolean installed;

    private Termination() {
    }

    /** The exit status of a drain: whether it answered every request that arrived. */
    public static int status(boolean drained) {
        return drained ? CLEAN : UNANSWERED;
    }

    /**
     * On SIGTERM or SIGINT, runs {@code drain} (with every other one registered), then exits with the status they
     * give together. {@code drain} is true when every request that arrived was answered; it may be run again by a
     * shutdown hook, so it drains once and answers the same after. Returns what unregisters it (a server stopped
     * by the application itself).
     */
    public static Runnable onSignal(BooleanSupplier drain) {
        DRAINS.add(drain);
        install();
        return () -> DRAINS.remove(drain);
    }

    /** Drains every registered server; the exit status of them all. */
    static int drainAll() {
        boolean clean = true;
        for (BooleanSupplier drain : DRAINS) {
            clean &= drain.getAsBoolean();
        }
        return status(clean);
    }

    private static synchronized void install() {
        if (installed) {
            return;
        }
        installed = true;
        try {
            Signals.handle("TERM");
            Signals.handle("INT");
        } catch (IllegalArgumentException | LinkageError e) {
            LOG.debug("the JVM keeps its own signal handling (exit 143 on SIGTERM): {}", e.toString());
        }
    }

    /** The one use of {@code sun.misc.Signal}, in a class of its own so that its absence fails only here. */
    private static final class Signals {
        private Signals() {
        }

        /**
         * The drain runs in a thread that is not a daemon, as the JVM's signal threads are: once the servers have stopped
         * their threads, the JVM would otherwise find no thread left to wait for and exit 0 before the status is decided.
         */
        static void handle(String name) {
            sun.misc.Signal.handle(new sun.misc.Signal(name), signal -> {
                Thread termination = new Thread(() -> System.exit(drainAll()), "metahook-termination");
                termination.setDaemon(false);
                termination.start();
            });
        }
    }
}
