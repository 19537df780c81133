package dev.metahook.reliability;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Clients sending hook calls back to back, as Metacontroller's workers do under load: each writes a
 * whole request, reads the whole answer, and sends the next one. Kept alive, a client sends the next
 * on the same connection and opens a new connection only after an answer that said
 * {@code Connection: close}; with a connection per request, it opens a new connection for every
 * request (which says {@code Connection: close}, as a client without keep-alive does). A client ends
 * when a new connection is refused (the listener is closed), or at the time bound. A request that
 * was written whole and got no whole answer is lost: Go's HTTP client does not send a POST again.
 */
final class KeepAliveClients {
    private static final Duration BOUND = Duration.ofMinutes(2);

    /** Requests written whole. */
    final AtomicLong written = new AtomicLong();
    final AtomicLong answered = new AtomicLong();
    /** Pipelining: second requests not answered because the answer to the first said {@code Connection: close} (the client sends them again). */
    final AtomicLong closedBeforeTheSecond = new AtomicLong();
    final AtomicLong answeredClose = new AtomicLong();
    final AtomicLong answered503 = new AtomicLong();
    /** Answers other than 200 and 503. */
    final AtomicLong answeredOther = new AtomicLong();
    /** 503s without {@code Connection: close}. */
    final AtomicLong refusedKeepingOpen = new AtomicLong();
    /** Written whole after SIGTERM (by the client's clock), then the connection closed or reset before a whole answer came. */
    final AtomicLong lost = new AtomicLong();
    /** The same for a request written before SIGTERM (see {@link DrainIT}). */
    final AtomicLong lostBeforeSigterm = new AtomicLong();
    /**
     * With a connection per request: the connection was reset after SIGTERM, while its request was written or before
     * any byte of an answer came, the kernel's
     * reset of a connection still in the listener's queue when the drain closed it (the window docs/production.md
     * names: a handshake that completes between the drain's last look at the queue and the close). Not counted in
     * {@link #lost}.
     */
    final AtomicLong resetInTheClosingQueue = new AtomicLong();
    /** When the first and the last of those resets were seen (nanoTime), or 0. */
    private final AtomicLong firstReset = new AtomicLong();
    private final AtomicLong lastReset = new AtomicLong();
    /** The connection was closed or reset while the request was being written (but for the closing queue's resets). */
    final AtomicLong notWritten = new AtomicLong();
    /** Answers without {@code Connection: close} to requests sent after a first {@code Connection: close} had been received. */
    final AtomicLong keptOpenAfterTheDrainBegan = new AtomicLong();
    /**
     * Answers without {@code Connection: close} to requests sent after SIGTERM, before the first answer that said close
     * (the listener was not closed yet): by design, their connections get the close with their next answer.
     */
    final AtomicLong keptOpenBeforeTheListenerClosed = new AtomicLong();
    final AtomicLong refusedConnections = new AtomicLong();
    final List<String> failures = Collections.synchronizedList(new ArrayList<>());
    /** When the first answer saying {@code Connection: close} was received (nanoTime), or 0. */
    private final AtomicLong firstClose = new AtomicLong();
    private final List<Thread> threads = new ArrayList<>();
    private final boolean perRequest;
    private final boolean pipelined;
    private volatile long sigterm;

    /** How a client sends its calls. */
    enum Kind {
        /** The next call on the same connection; a new connection only after an answer that said close. */
        KEPT_ALIVE,
        /** Two requests written at once, then both answers read (HTTP/1.1 pipelining). */
        PIPELINING,
        /** A connection for every call, its request saying {@code Connection: close}. */
        CONNECTION_PER_REQUEST
    }

    /**
     * {@code clients} clients of one kind. Pipelining, a second request is answered, or the first answer says
     * {@code Connection: close} and the connection closes with the second unanswered (the client knows to send it
     * again); anything else is a loss.
     */
    KeepAliveClients(Kind kind, int port, byte[] body, int clients) {
        this.perRequest = kind == Kind.CONNECTION_PER_REQUEST;
        this.pipelined = kind == Kind.PIPELINING;
        for (int i = 0; i < clients; i++) {
            threads.add(Scenarios.started(() -> run(port, body)));
        }
    }

    private void run(int port, byte[] body) {
        long deadline = System.nanoTime() + BOUND.toNanos();
        while (System.nanoTime() < deadline) {
            Socket socket;
            try {
                socket = Scenarios.socket(port);
            } catch (IOException refused) {
                refusedConnections.incrementAndGet();
                return;
            }
            try (socket) {
                while (System.nanoTime() < deadline && (pipelined ? pipelinedCalls(socket, body) : call(socket, body))) {
                    // the next call on the same connection
                }
            } catch (IOException closing) {
                // closing a connection the server already closed
            }
        }
    }

    /** One call; true when the connection may carry the next one. */
    private boolean call(Socket socket, byte[] body) {
        long sent = System.nanoTime();
        try {
            OutputStream out = socket.getOutputStream();
            out.write(perRequest ? Http.closingHead("POST", Scenarios.HOOK, body.length) : Http.head("POST", Scenarios.HOOK, body.length));
            out.write(body);
            out.flush();
        } catch (IOException e) {
            if (perRequest && closingQueueReset(sent, e)) {
                return false;
            }
            notWritten.incrementAndGet();
            failed("not written: " + e);
            return false;
        }
        written.incrementAndGet();
        Http.Response response;
        try {
            response = Http.read(socket.getInputStream());
        } catch (IOException | RuntimeException e) {
            long signalled = sigterm;
            boolean before = signalled == 0 || sent - signalled < 0;
            if (perRequest && closingQueueReset(sent, e)) {
                return false;
            }
            (before ? lostBeforeSigterm : lost).incrementAndGet();
            failed("lost: " + e + (signalled == 0 ? "" : ", sent " + (sent - signalled) / 1_000_000 + " ms after SIGTERM,"));
            return false;
        }
        return counted(response, sent) && !perRequest;
    }

    /** Two requests written at once, then their answers read; true when the connection may carry the next two. */
    private boolean pipelinedCalls(Socket socket, byte[] body) {
        long sent = System.nanoTime();
        try {
            OutputStream out = socket.getOutputStream();
            byte[] head = Http.head("POST", Scenarios.HOOK, body.length);
            byte[] two = new byte[2 * (head.length + body.length)];
            System.arraycopy(head, 0, two, 0, head.length);
            System.arraycopy(body, 0, two, head.length, body.length);
            System.arraycopy(two, 0, two, head.length + body.length, head.length + body.length);
            out.write(two);
            out.flush();
        } catch (IOException e) {
            notWritten.incrementAndGet();
            failed("not written: " + e);
            return false;
        }
        written.addAndGet(2);
        for (int n = 0; n < 2; n++) {
            Http.Response response;
            try {
                response = Http.read(socket.getInputStream());
            } catch (IOException | RuntimeException e) {
                long signalled = sigterm;
                (signalled == 0 || sent - signalled < 0 ? lostBeforeSigterm : lost).addAndGet(2 - n);
                failed("lost " + (2 - n) + " pipelined: " + e);
                return false;
            }
            if (!counted(response, sent)) {
                if (n == 0) {
                    closedBeforeTheSecond.incrementAndGet();
                }
                return false;
            }
        }
        return true;
    }

    /** Counts an answer; true when its connection stays open. */
    private boolean counted(Http.Response response, long sent) {
        answered.incrementAndGet();
        if (response.status() == 503) {
            answered503.incrementAndGet();
        }
        if (response.status() != 200 && response.status() != 503) {
            answeredOther.incrementAndGet();
            failed("answered " + response.status() + ": " + response.text());
        }
        if (response.closes()) {
            answeredClose.incrementAndGet();
            if (!perRequest) {
                firstClose.compareAndSet(0, System.nanoTime());
            }
            return false;
        }
        if (response.status() == 503) {
            refusedKeepingOpen.incrementAndGet();
        }
        long drainSeen = firstClose.get();
        if (drainSeen != 0 && sent - drainSeen > 0) {
            keptOpenAfterTheDrainBegan.incrementAndGet();
        } else if (sigterm != 0 && sent - sigterm > 0) {
            keptOpenBeforeTheListenerClosed.incrementAndGet();
        }
        return true;
    }

    /**
     * Whether this failure of a new connection's request, sent after SIGTERM, is the reset of the closing listener's
     * queue (seen while the request was read back or still being written: the kernel resets the connection when the
     * listener closes, whatever the client is doing); counted as such when it is.
     */
    private boolean closingQueueReset(long sent, Exception e) {
        long signalled = sigterm;
        if (signalled == 0 || sent - signalled < 0 || !(e instanceof java.net.SocketException)
                || !("Connection reset".equals(e.getMessage()) || "Connection reset by peer".equals(e.getMessage()))) {
            return false;
        }
        resetInTheClosingQueue.incrementAndGet();
        long seen = System.nanoTime();
        firstReset.compareAndSet(0, seen);
        lastReset.accumulateAndGet(seen, Math::max);
        failed("reset in the closing listener's queue: sent " + (sent - signalled) / 1_000_000 + " ms after SIGTERM");
        return true;
    }

    private void failed(String what) {
        if (failures.size() < 5) {
            long signalled = sigterm;
            failures.add(what + (signalled == 0 ? " before SIGTERM" : " " + (System.nanoTime() - signalled) / 1_000_000 + " ms after SIGTERM"));
        }
    }

    /**
     * Milliseconds between the first and the last reset in the closing listener's queue this load saw (0 with none
     * or one): the kernel resets every connection still queued in the one instant the listener closes.
     */
    long closingQueueResetSpreadMillis() {
        long first = firstReset.get();
        return first == 0 ? 0 : (lastReset.get() - first) / 1_000_000;
    }

    /** Failures are told with their time since this moment (nanoTime). */
    void sigtermAt(long nanoTime) {
        sigterm = nanoTime;
    }

    void join() throws InterruptedException {
        for (Thread thread : threads) {
            thread.join(BOUND.plusSeconds(30).toMillis());
        }
    }

    @Override
    public String toString() {
        return "written " + written + ", answered " + answered + " (" + answered503 + " of them 503, " + answeredClose + " with Connection: close, " + answeredOther + " other than 200/503, "
                + refusedKeepingOpen + " 503s keeping the connection, " + keptOpenBeforeTheListenerClosed + " kept open after SIGTERM before the first close, "
                + keptOpenAfterTheDrainBegan + " kept open after it), lost "
                + lost + " (and " + lostBeforeSigterm + " sent before SIGTERM), reset in the closing queue " + resetInTheClosingQueue
                + (resetInTheClosingQueue.get() > 1 ? " within " + closingQueueResetSpreadMillis() + " ms" : "") + (pipelined ? ", second requests closed before " + closedBeforeTheSecond : "") + ", not written " + notWritten + ", refused connections " + refusedConnections + (failures.isEmpty() ? "" : " " + failures);
    }
}
