package dev.metahook.internal.server;

import jakarta.servlet.http.HttpServletRequest;
import java.time.Duration;
import org.eclipse.jetty.ee10.servlet.ServletContextRequest;
import org.eclipse.jetty.io.EndPoint;

/**
 * How long a hook call's connection may go without a byte: {@link BodyIntake#READ_IDLE_TIMEOUT} while
 * its body is read, {@link HookHandler#WRITE_IDLE_TIMEOUT} while its answer is written, and the
 * listener's keep-alive idle timeout again once the answer is written. Set by the handler, not by
 * Jetty's stream idle timeout: that one starts when a request's headers are parsed, so on a busy
 * server a request still waiting for a thread would be failed unanswered.
 */
final class PauseLimits {
    private PauseLimits() {
    }

    /** From now on, the call's connection may pause for {@code limit}. */
    static void set(HttpServletRequest request, Duration limit) {
        EndPoint endPoint = endPoint(request);
        if (endPoint != null) {
            endPoint.setIdleTimeout(limit.toMillis());
        }
    }

    /** Once the call's answer is written (or the exchange failed), the connection's keep-alive idle timeout is the listener's again. */
    static void restoreWhenWritten(HttpServletRequest request) {
        ServletContextRequest call = ServletContextRequest.getServletContextRequest(request);
        if (call == null) {
            return;
        }
        long keepAlive = call.getConnectionMetaData().getConnector().getIdleTimeout();
        EndPoint endPoint = call.getConnectionMetaData().getConnection().getEndPoint();
        Drain.whenWritten(request, () -> endPoint.setIdleTimeout(keepAlive));
    }

    /** The call's connection, or null outside a servlet request. */
    static EndPoint endPoint(HttpServletRequest request) {
        ServletContextRequest call = ServletContextRequest.getServletContextRequest(request);
        return call == null ? null : call.getConnectionMetaData().getConnection().getEndPoint();
    }
}
