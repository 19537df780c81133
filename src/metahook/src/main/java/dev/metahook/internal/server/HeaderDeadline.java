package dev.metahook.internal.server;

import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.io.ssl.SslConnection;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.internal.HttpConnection;

/**
 * Bounds the time a request line and headers may take, and on a TLS connection the handshake before
 * them: a connection that has been part-way through them for longer than {@link #DEADLINE} is closed.
 * Jetty reads headers without holding a thread, but a client sending them a byte a second would
 * otherwise keep its connection (and its buffers) for as long as it likes, since the keep-alive idle
 * timeout never fires on a connection that trickles; a TLS connection that never finishes its handshake
 * would keep it until the idle timeout. Every listener of the server is watched (the hook port and the
 * management port each have one). Checked once a second.
 */
final class HeaderDeadline implements AutoCloseable {
    static final Duration DEADLINE = Duration.ofSeconds(10);
    private static final Duration SWEEP = Duration.ofSeconds(1);

    private final Server server;
    private final Map<EndPoint, Long> midHeaderSince = new ConcurrentHashMap<>();
    private final ScheduledExecutorService sweeper = Executors.newSingleThreadScheduledExecutor(work -> {
        Thread thread = new Thread(work, "metahook-header-deadline");
        thread.setDaemon(true);
        return thread;
    });

    private HeaderDeadline(Server server) {
        this.server = server;
    }

    static HeaderDeadline watch(Server server) {
        HeaderDeadline deadline = new HeaderDeadline(server);
        deadline.sweeper.scheduleWithFixedDelay(deadline::sweep, SWEEP.toMillis(), SWEEP.toMillis(), TimeUnit.MILLISECONDS);
        return deadline;
    }

    private void sweep() {
        long now = System.nanoTime();
        Set<EndPoint> midHeader = new HashSet<>();
        for (Connector connector : server.getConnectors()) {
            for (EndPoint endPoint : connector.getConnectedEndPoints()) {
                if (midHeader(endPoint.getConnection())) {
                    midHeader.add(endPoint);
                    long since = midHeaderSince.computeIfAbsent(endPoint, e -> now);
                    if (now - since > DEADLINE.toNanos()) {
                        endPoint.close();
                    }
                }
            }
        }
        midHeaderSince.keySet().retainAll(midHeader);
    }

    /**
     * Whether the connection is part-way through its head: on TLS, the handshake not done yet (the session the
     * engine has is the JDK's null session, of protocol {@code NONE}, until it is); then part of a request line
     * or headers received, and not all of them.
     */
    private static boolean midHeader(Connection connection) {
        if (connection instanceof SslConnection tls) {
            if ("NONE".equals(tls.getSSLEngine().getSession().getProtocol())) {
                return true;
            }
            connection = tls.getSslEndPoint().getConnection();
        }
        return connection instanceof HttpConnection http && http.getParser().inHeaderState() && !http.getParser().isStart();
    }

    @Override
    public void close() {
        sweeper.shutdownNow();
    }
}
