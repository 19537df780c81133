package dev.metahook.server;

import jakarta.servlet.http.HttpServletRequest;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.ee10.servlet.ServletContextRequest;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.eclipse.jetty.util.component.Graceful;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Shutdown that drops nothing. A call counts as done only once its response is written (Jetty's
 * {@link GracefulHandler} tracks it until the response completes, not until the handler returns).
 * On drain (after readiness went false, from when every hook answer carries {@code Connection:
 * close}) a request that arrives on an open connection is refused with {@code 503} before its body
 * is read, then the listener stops accepting, idle keep-alive connections are closed once quiet for
 * {@link BodyIntake#READ_IDLE_TIMEOUT}, and the drain is clean when the last call in flight has
 * been answered within the shutdown timeout.
 */
final class Drain {
    private static final Logger LOG = LoggerFactory.getLogger(Drain.class);
    private static final Duration CHECK = Duration.ofMillis(200);

    private final GracefulHandler graceful = new GracefulHandler();

    /** Puts the tracking in front of every handler of the server. */
    void install(Server server) {
        // A call in flight whose body pauses must keep the read limit it had, not Jetty's 1 s shutdown default.
        graceful.setShutdownIdleTimeout(BodyIntake.READ_IDLE_TIMEOUT.toMillis());
        server.insertHandler(graceful);
    }

    /**
     * Stops accepting and waits up to {@code timeout} for every call in flight to be answered and
     * every connection to close; true when that happened in time.
     */
    boolean drain(Server server, Duration timeout) {
        // New requests are refused before the listener closes: a request read in between would be
        // handled on a connection Jetty is about to close, and its answer lost.
        graceful.shutdown();
        CompletableFuture<Void> drained = Graceful.shutdown(server);
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            while (true) {
                closeIdleSoon(server);
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    LOG.warn("calls still in flight after {}: stopping anyway", timeout);
                    return false;
                }
                try {
                    drained.get(Math.min(left, CHECK.toNanos()), TimeUnit.NANOSECONDS);
                    return true;
                } catch (TimeoutException notYet) {
                    // check again
                }
            }
        } catch (ExecutionException e) {
            LOG.warn("drain failed: {}", e.getCause().toString());
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Every open connection closes once quiet for the read idle limit. Jetty sets that when the
     * drain starts, but a call that was in flight then puts back the keep-alive timeout when it
     * completes; so it is set again until the drain ends.
     */
    private static void closeIdleSoon(Server server) {
        long idle = BodyIntake.READ_IDLE_TIMEOUT.toMillis();
        for (Connector connector : server.getConnectors()) {
            for (EndPoint endPoint : connector.getConnectedEndPoints()) {
                if (endPoint.getIdleTimeout() > idle) {
                    endPoint.setIdleTimeout(idle);
                }
            }
        }
    }

    /** Runs {@code done} once the response to {@code request} is written (or the exchange failed). */
    static void whenWritten(HttpServletRequest request, Runnable done) {
        ServletContextRequest servletRequest = ServletContextRequest.getServletContextRequest(request);
        if (servletRequest == null) {
            done.run();
            return;
        }
        Request.addCompletionListener(servletRequest, failure -> done.run());
    }
}
