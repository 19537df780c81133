package dev.metahook.internal.server;

import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.ee10.servlet.ServletContextRequest;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpHeaderValue;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.io.ManagedSelector;
import org.eclipse.jetty.io.ssl.SslConnection;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.NetworkConnector;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.internal.HttpConnection;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Shutdown that loses no request. HTTP/1.1 gives a server one safe way to end a kept-alive
 * connection: an answer that says {@code Connection: close}. A connection closed any other way
 * races the next request its client may be writing at that moment, and Metacontroller's Go client
 * does not send a POST again when that happens. So, on drain (after readiness went false):
 * <ol>
 * <li>the listener stops accepting: in the thread of the selector that accepts for it, the
 * connections the kernel has already queued are taken and served, and the listener is closed right
 * after the queue was found empty (a queued connection would be reset by the close, its request
 * lost), so a client that connects from then on is refused before it sends anything, and goes to
 * another replica;</li>
 * <li>every request that arrives on an open connection is answered as usual (the hook's own
 * answer: {@code 200}, or {@code 503} from the memory budget), and every answer from then on says
 * {@code Connection: close}; the connection closes once that answer is written (an answer written
 * between the signal and the listener's close does not say close: its connection stays open and its
 * next request gets the close);</li>
 * <li>a connection whose client sends nothing more is closed once it has been quiet for
 * {@code quiet}, with no request part-way and no byte waiting unread ({@code SHUTDOWN_IDLE_SECONDS});</li>
 * <li>the drain is over when every connection is closed, or at the shutdown timeout; it is clean
 * when no call was in flight then, no open connection held a request not answered (bytes unread,
 * or a request part-way), and no call's answer failed to be written since the drain began (each such
 * call is logged once, with its method, path and client).</li>
 * </ol>
 * A call counts as in flight until its response is written, not until the handler returns.
 */
final class Drain extends Handler.Wrapper {
    private static final Logger LOG = LoggerFactory.getLogger(Drain.class);
    private static final long CHECK_MILLIS = 50;
    private static final Duration LISTENER_CLOSE = Duration.ofSeconds(1);

    /** Calls being answered, per connection (HTTP/1.1: one at a time; the count keeps it right whatever comes). */
    private final Map<Connection, AtomicInteger> busy = new ConcurrentHashMap<>();
    /** The request each busy connection is answering, named in the log should the drain's time run out. */
    private final Map<Connection, Request> requests = new ConcurrentHashMap<>();
    private final AtomicInteger inFlight = new AtomicInteger();
    /** Calls whose answer could not be written once the drain began: each is logged, and any makes the drain unclean. */
    private final AtomicInteger unansweredCalls = new AtomicInteger();
    /** The connections the deadline's listing named: a call of theirs that fails once the server stops is not named again. */
    private final Set<Connection> namedAtDeadline = ConcurrentHashMap.newKeySet();
    private final Duration quiet;
    private volatile boolean draining;
    private volatile boolean closing;

    Drain(Duration quiet) {
        this.quiet = quiet;
    }

    /** Puts the tracking in front of every handler of the server. */
    void install(Server server) {
        server.insertHandler(this);
    }

    /** Whether every answer now says {@code Connection: close}. */
    boolean closing() {
        return closing;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        Connection connection = request.getConnectionMetaData().getConnection();
        started(connection, request);
        if (closing) {
            response.getHeaders().put(HttpHeader.CONNECTION, HttpHeaderValue.CLOSE.asString());
        }
        Callback tracked = new Callback.Nested(callback) {
            @Override
            public void succeeded() {
                try {
                    super.succeeded();
                } finally {
                    done(connection);
                }
            }

            @Override
            public void failed(Throwable failure) {
                try {
                    super.failed(failure);
                } finally {
                    done(connection);
                }
            }
        };
        boolean handled = false;
        try {
            handled = super.handle(request, response, tracked);
            return handled;
        } finally {
            if (!handled) {
                done(connection);
            }
        }
    }

    /**
     * A hook call whose answer could not be written ({@code why}): once the drain has begun, it is logged
     * with its path and client, and makes the drain unclean; unless the drain's deadline already named it
     * (it was in flight then, and fails now because the server stopped under it).
     */
    void unanswered(HttpServletRequest request, String why) {
        if (draining && !namedAtDeadline(request)) {
            unansweredCalls.incrementAndGet();
            LOG.warn("a request that arrived during the drain was not answered: {} {} from {}:{} ({})", request.getMethod(),
                    request.getRequestURI(), request.getRemoteAddr(), request.getRemotePort(), why);
        }
    }

    private boolean namedAtDeadline(HttpServletRequest request) {
        ServletContextRequest call = ServletContextRequest.getServletContextRequest(request);
        return call != null && namedAtDeadline.contains(call.getConnectionMetaData().getConnection());
    }

    private void started(Connection connection, Request request) {
        inFlight.incrementAndGet();
        requests.put(connection, request);
        busy.computeIfAbsent(connection, c -> new AtomicInteger()).incrementAndGet();
    }

    private void done(Connection connection) {
        inFlight.decrementAndGet();
        busy.computeIfPresent(connection, (c, count) -> {
            if (count.decrementAndGet() > 0) {
                return count;
            }
            requests.remove(connection);
            return null;
        });
    }

    /**
     * Stops accepting, answers what comes on the open connections with {@code Connection: close},
     * closes the quiet ones, and waits up to {@code timeout} for every connection to close; true when
     * no call was left in flight.
     */
    boolean drain(Server server, Duration timeout) {
        draining = true;
        long deadline = System.nanoTime() + timeout.toNanos();
        List<Connector> connectors = List.of(server.getConnectors());
        for (Connector connector : connectors) {
            // Only the listener: Jetty's own shutdown would also end kept-alive connections without telling their clients.
            if (connector instanceof NetworkConnector network) {
                int port = network.getLocalPort();
                if (network instanceof ServerConnector listener) {
                    closeInSelector(listener);
                }
                network.close();
                untilRefused(network.getHost(), port);
            }
        }
        // Only once the listener is closed: a client told to close would otherwise reconnect into a listener about to close.
        for (Connector connector : connectors) {
            HttpConnectionFactory http = connector.getConnectionFactory(HttpConnectionFactory.class);
            if (http != null) {
                http.getHttpConfiguration().setPersistentConnectionsEnabled(false);
            }
        }
        closing = true;
        int unanswered = 0;
        try {
            while (open(connectors) > 0) {
                if (System.nanoTime() - deadline >= 0) {
                    unanswered = unanswered(connectors);
                    LOG.warn("{} connections still open after {} ({} calls in flight, {} requests that arrived not answered): stopping anyway",
                            open(connectors), timeout, inFlight.get(), unanswered);
                    break;
                }
                closeQuiet(connectors);
                Thread.sleep(CHECK_MILLIS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        int cut = unansweredCalls.get();
        if (cut > 0) {
            LOG.warn("{} requests that arrived during the drain were not answered (each logged above)", cut);
        }
        return inFlight.get() == 0 && unanswered == 0 && cut == 0;
    }

    /**
     * Closes a listener that accepts in its selector (no acceptor thread) from inside that selector's
     * thread: takes every connection the kernel has queued for it, until the queue is empty, hands each
     * to Jetty, and closes the listener, whose socket the selector then closes at once (a channel a
     * selector holds is closed by the selector's next look, so a close from any other thread can leave
     * the socket listening for as long as the selector sleeps; so the selector is made to look at once, and
     * woken for the events that look found). A connection still queued when the socket closes is reset by the kernel, its request lost; one whose handshake completes between the
     * last look at the queue and the close is the one case left to chance (microseconds). False when the
     * listener is not such a one; the caller closes it then.
     */
    private static boolean closeInSelector(ServerConnector connector) {
        if (connector.getAcceptors() != 0 || !(connector.getTransport() instanceof ServerSocketChannel listener)) {
            return false;
        }
        for (ManagedSelector selector : connector.getSelectorManager().getBeans(ManagedSelector.class)) {
            if (listener.keyFor(selector.getSelector()) == null) {
                continue;
            }
            CountDownLatch closed = new CountDownLatch(1);
            selector.submit(nio -> {
                try {
                    takeQueuedAndClose(connector, listener);
                    // Drops the listener's cancelled key now, which closes its socket, instead of after this selector's other work.
                    nio.selectNow();
                    nio.wakeup();
                } catch (IOException e) {
                    LOG.warn("could not close the listener at once: {}", e.toString());
                } finally {
                    closed.countDown();
                }
            });
            try {
                return closed.await(LISTENER_CLOSE.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return false;
    }

    private static void takeQueuedAndClose(ServerConnector connector, ServerSocketChannel listener) {
        int taken = 0;
        try {
            for (SocketChannel queued; (queued = listener.accept()) != null; taken++) {
                queued.configureBlocking(false);
                queued.socket().setTcpNoDelay(connector.getAcceptedTcpNoDelay());
                connector.getSelectorManager().accept(queued);
            }
        } catch (IOException e) {
            LOG.warn("could not take the connections queued on the listener: {}", e.toString());
        }
        try {
            listener.close();
        } catch (IOException e) {
            LOG.warn("could not close the listener: {}", e.toString());
        }
        LOG.debug("took {} queued connections, then closed the listener", taken);
    }

    /** Open connections holding a request that was not answered (in flight, part-way, or unread), each logged. */
    private int unanswered(List<Connector> connectors) {
        int count = 0;
        for (Connector connector : connectors) {
            if (!(connector instanceof NetworkConnector)) {
                continue;
            }
            for (EndPoint endPoint : connector.getConnectedEndPoints()) {
                if (unanswered(endPoint)) {
                    count++;
                    Connection connection = httpConnection(endPoint);
                    if (connection != null) {
                        namedAtDeadline.add(connection);
                    }
                    LOG.warn("a request that arrived during the drain was not answered: {} (the drain's time was up)", named(endPoint));
                }
            }
        }
        return count;
    }

    /**
     * Whether this connection holds a request that arrived and was not answered: one in flight or part-way, or
     * bytes not read yet. A connection whose last answer said close (its output shut, its parser closed) holds
     * none: it only waits for its client to close its side.
     */
    private boolean unanswered(EndPoint endPoint) {
        Connection connection = httpConnection(endPoint);
        if (endPoint.isOutputShutdown()
                || connection instanceof HttpConnection http && (http.getParser().isClose() || http.getParser().isClosed())) {
            return false;
        }
        return !idle(connection) || !nothingUnread(endPoint);
    }

    /** The request a connection is answering, or, when it has not read one yet, its client. */
    private String named(EndPoint endPoint) {
        Request request = requests.get(httpConnection(endPoint));
        if (request != null) {
            return request.getMethod() + " " + request.getHttpURI().getPath() + " from " + Request.getRemoteAddr(request) + ":"
                    + Request.getRemotePort(request);
        }
        return endPoint.getRemoteSocketAddress() instanceof InetSocketAddress client
                ? "a request not read yet from " + client.getHostString() + ":" + client.getPort()
                : "a request not read yet";
    }

    private static Connection httpConnection(EndPoint endPoint) {
        Connection connection = endPoint.getConnection();
        return connection instanceof SslConnection tls ? tls.getSslEndPoint().getConnection() : connection;
    }

    /**
     * Until a connection to the listener is refused. Closing a listener that a thread is blocked
     * accepting on only marks it closed: the kernel closes it once that thread wakes up, and a client
     * connecting in between would be accepted and then reset, its request lost.
     */
    private static void untilRefused(String host, int port) {
        boolean any = host == null || host.equals("0.0.0.0") || host.equals("::") || host.equals("[::]");
        InetSocketAddress address = new InetSocketAddress(any ? "127.0.0.1" : host, port);
        long deadline = System.nanoTime() + LISTENER_CLOSE.toNanos();
        while (System.nanoTime() - deadline < 0) {
            try (Socket probe = new Socket()) {
                probe.connect(address, (int) LISTENER_CLOSE.toMillis());
            } catch (IOException refused) {
                return;
            }
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        LOG.warn("the listener on {} still accepts connections {} after it was closed", address, LISTENER_CLOSE);
    }

    private static int open(List<Connector> connectors) {
        int open = 0;
        for (Connector connector : connectors) {
            if (connector instanceof NetworkConnector) {
                open += connector.getConnectedEndPoints().size();
            }
        }
        return open;
    }

    /** Closes every connection with no call in flight, no request part-way, and nothing sent or received for {@code quiet}. */
    private void closeQuiet(List<Connector> connectors) {
        List<Connection> quietOnes = new ArrayList<>();
        for (Connector connector : connectors) {
            if (!(connector instanceof NetworkConnector)) {
                continue;
            }
            for (EndPoint endPoint : connector.getConnectedEndPoints()) {
                Connection connection = httpConnection(endPoint);
                if (!idle(connection)) {
                    continue;
                }
                if (nothingUnread(endPoint) && idleFor(endPoint) >= quiet.toMillis()) {
                    quietOnes.add(connection);
                }
            }
        }
        quietOnes.forEach(Connection::close);
    }

    private boolean idle(Connection connection) {
        if (connection == null || busy.containsKey(connection)) {
            return false;
        }
        return !(connection instanceof HttpConnection http) || (http.getParser().isStart() && http.isRequestBufferEmpty());
    }

    /**
     * Whether the kernel holds no bytes the server has not read yet: a request that has arrived but
     * was not read (a busy machine) makes the connection anything but quiet.
     */
    static boolean nothingUnread(EndPoint endPoint) {
        if (endPoint.getTransport() instanceof SocketChannel channel) {
            try {
                return channel.socket().getInputStream().available() == 0;
            } catch (IOException closed) {
                return true;
            }
        }
        return true;
    }

    private static long idleFor(EndPoint endPoint) {
        return endPoint instanceof org.eclipse.jetty.io.IdleTimeout timed ? timed.getIdleFor() : Long.MAX_VALUE;
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
