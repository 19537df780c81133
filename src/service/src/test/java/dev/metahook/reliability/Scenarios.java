package dev.metahook.reliability;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The loads of the reliability suite, shared by the tests (which assert outcomes) and the benchmark
 * (which prints figures). Every load is bounded in count and time; every socket has a read timeout.
 */
final class Scenarios {
    static final String HOOK = "/webapp/sync";
    private static final int SOCKET_TIMEOUT_MS = 60_000;

    private Scenarios() {
    }

    /** Answers by status; {@code -1} counts calls that got no whole answer. */
    static final class Tally {
        final Map<Integer, AtomicLong> byStatus = new ConcurrentHashMap<>();
        final List<Long> latenciesMicros = Collections.synchronizedList(new ArrayList<>());
        /** The first whole answer of each status. */
        final Map<Integer, Http.Response> examples = new ConcurrentHashMap<>();
        /** The first failures of calls that got no whole answer. */
        final List<String> failures = Collections.synchronizedList(new ArrayList<>());

        void failed(Exception e) {
            add(-1);
            if (failures.size() < 5) {
                failures.add(e.toString());
            }
        }

        void add(int status) {
            byStatus.computeIfAbsent(status, s -> new AtomicLong()).incrementAndGet();
        }

        void add(int status, long startedNanos) {
            add(status);
            latenciesMicros.add((System.nanoTime() - startedNanos) / 1000);
        }

        long count(int status) {
            AtomicLong count = byStatus.get(status);
            return count == null ? 0 : count.get();
        }

        long total() {
            return byStatus.values().stream().mapToLong(AtomicLong::get).sum();
        }

        /** Every call answered with one of {@code statuses}. */
        boolean onlyAnswered(int... statuses) {
            long allowed = 0;
            for (int status : statuses) {
                allowed += count(status);
            }
            return allowed == total();
        }

        long percentileMillis(double p) {
            List<Long> sorted;
            synchronized (latenciesMicros) {
                sorted = new ArrayList<>(latenciesMicros);
            }
            if (sorted.isEmpty()) {
                return -1;
            }
            Collections.sort(sorted);
            return sorted.get((int) Math.min(sorted.size() - 1, Math.floor(p * sorted.size()))) / 1000;
        }

        @Override
        public String toString() {
            return new TreeMap<>(byStatus) + (failures.isEmpty() ? "" : " " + failures);
        }
    }

    /** {@code count} calls with {@code body} at once, each on its own connection. */
    static Tally atOnce(int port, byte[] body, int count) throws InterruptedException {
        return atOnce(port, HOOK, body, count);
    }

    /** {@code count} calls of {@code path} with {@code body} at once, each on its own connection. */
    static Tally atOnce(int port, String path, byte[] body, int count) throws InterruptedException {
        Tally tally = new Tally();
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            threads.add(started(() -> {
                try (Socket socket = socket(port)) {
                    go.await();
                    long started = System.nanoTime();
                    Http.Response response = Http.exchange(socket, "POST", path, body);
                    tally.examples.putIfAbsent(response.status(), response);
                    tally.add(response.status(), started);
                } catch (IOException | InterruptedException e) {
                    tally.failed(e);
                }
            }));
        }
        go.countDown();
        for (Thread thread : threads) {
            thread.join(Duration.ofMinutes(3).toMillis());
        }
        return tally;
    }

    /** Small calls from {@code connections} keep-alive clients, until {@code stop}; latencies recorded. */
    static final class SmallLoad implements AutoCloseable {
        final Tally tally = new Tally();
        private final AtomicBoolean stop = new AtomicBoolean();
        private final List<Thread> threads = new ArrayList<>();

        SmallLoad(int port, byte[] body, int connections) {
            for (int i = 0; i < connections; i++) {
                threads.add(started(() -> {
                    while (!stop.get()) {
                        try (Socket socket = socket(port)) {
                            while (!stop.get()) {
                                long started = System.nanoTime();
                                Http.Response response = Http.exchange(socket, "POST", HOOK, body);
                                tally.add(response.status(), started);
                                if (response.closes()) {
                                    break;
                                }
                            }
                        } catch (IOException e) {
                            tally.failed(e);
                        }
                    }
                }));
            }
        }

        @Override
        public void close() throws InterruptedException {
            stop.set(true);
            for (Thread thread : threads) {
                thread.join(Duration.ofMinutes(2).toMillis());
            }
        }
    }

    /** What the slow clients saw, and the good call made while they were open. */
    record SlowOutcome(int slow, long answered408, long answeredOther, long closedUnanswered, long stillOpen, int goodStatus,
                       long goodMillis) {
    }

    /**
     * {@code count} connections each declare a 1,000-byte body and send it a byte a second; once all
     * have sent a byte, one good call is made on a fresh connection. Then waits (up to
     * {@code within}) for the slow ones to be answered or closed.
     */
    static SlowOutcome slowClients(int port, byte[] good, int count, Duration within) throws Exception {
        List<Socket> slow = new ArrayList<>();
        try {
            for (int i = 0; i < count; i++) {
                Socket socket = socket(port);
                socket.getOutputStream().write(Http.head("POST", HOOK, 1000));
                socket.getOutputStream().write('{');
                socket.getOutputStream().flush();
                slow.add(socket);
            }
            Thread.sleep(1000);
            dribble(slow);
            long started = System.nanoTime();
            int goodStatus;
            try (Socket socket = socket(port)) {
                goodStatus = Http.exchange(socket, "POST", HOOK, good).status();
            }
            long goodMillis = (System.nanoTime() - started) / 1_000_000;
            long[] outcome = new long[4];
            boolean[] done = new boolean[slow.size()];
            long deadline = System.nanoTime() + within.toNanos();
            while (System.nanoTime() < deadline && remaining(done) > 0) {
                dribble(slow);
                for (int i = 0; i < slow.size(); i++) {
                    if (!done[i] && slow.get(i).getInputStream().available() > 0) {
                        done[i] = true;
                        outcome[answer(slow.get(i))]++;
                    }
                }
                Thread.sleep(1000);
            }
            for (int i = 0; i < slow.size(); i++) {
                if (!done[i]) {
                    slow.get(i).setSoTimeout(100);
                    outcome[answer(slow.get(i))]++;
                }
            }
            return new SlowOutcome(count, outcome[0], outcome[1], outcome[2], outcome[3], goodStatus, goodMillis);
        } finally {
            for (Socket socket : slow) {
                socket.close();
            }
        }
    }

    private static long remaining(boolean[] done) {
        long left = 0;
        for (boolean d : done) {
            left += d ? 0 : 1;
        }
        return left;
    }

    /** One more byte on every slow connection still open; a closed one is left alone. */
    private static void dribble(List<Socket> slow) {
        for (Socket socket : slow) {
            try {
                socket.getOutputStream().write(' ');
                socket.getOutputStream().flush();
            } catch (IOException closedByServer) {
                // the server gave up on it: its answer (if any) is read later
            }
        }
    }

    /** 0: answered 408, 1: answered otherwise, 2: closed unanswered, 3: still open. */
    private static int answer(Socket socket) {
        try {
            return Http.read(socket.getInputStream()).status() == 408 ? 0 : 1;
        } catch (SocketTimeoutException e) {
            return 3;
        } catch (IOException e) {
            return 2;
        }
    }

    /** How many connections trickling their headers were closed, and the good call made meanwhile. */
    record SlowHeaders(int slow, long closed, int goodStatus, long goodMillis) {
    }

    /**
     * {@code count} connections send a request line and headers a byte a second; once each has sent
     * a few, one good call is made on a fresh connection. Then waits (up to {@code within}) for the
     * slow ones to be closed by the server.
     */
    static SlowHeaders slowHeaders(int port, byte[] good, int count, Duration within) throws Exception {
        byte[] head = Http.head("POST", HOOK, 10);
        List<Socket> slow = new ArrayList<>();
        try {
            for (int i = 0; i < count; i++) {
                slow.add(socket(port));
            }
            boolean[] closed = new boolean[count];
            int sent = 0;
            long deadline = System.nanoTime() + within.toNanos();
            int goodStatus = 0;
            long goodMillis = -1;
            while (System.nanoTime() < deadline && remaining(closed) > 0) {
                for (int i = 0; i < count; i++) {
                    if (!closed[i]) {
                        try {
                            slow.get(i).getOutputStream().write(head[sent % head.length]);
                            slow.get(i).getOutputStream().flush();
                        } catch (IOException e) {
                            closed[i] = true;
                        }
                    }
                }
                sent++;
                if (sent == 3) {
                    long started = System.nanoTime();
                    try (Socket socket = socket(port)) {
                        goodStatus = Http.exchange(socket, "POST", HOOK, good).status();
                    }
                    goodMillis = (System.nanoTime() - started) / 1_000_000;
                }
                Thread.sleep(1000);
            }
            return new SlowHeaders(count, count - remaining(closed), goodStatus, goodMillis);
        } finally {
            for (Socket socket : slow) {
                socket.close();
            }
        }
    }

    /** What the clients of a drain saw. */
    static final class DrainTally {
        final Tally answered = new Tally();
        final AtomicLong refusedConnections = new AtomicLong();
        final AtomicLong resetBeforeAnyByte = new AtomicLong();
        final AtomicLong cutMidAnswer = new AtomicLong();
    }

    /**
     * {@code connections} keep-alive clients that call until the server stops accepting: after a
     * {@code Connection: close} they reconnect; a refused connection ends a client.
     */
    static final class DrainLoad {
        final DrainTally tally = new DrainTally();
        private final List<Thread> threads = new ArrayList<>();

        DrainLoad(int port, byte[] body, int connections) {
            for (int i = 0; i < connections; i++) {
                threads.add(started(() -> run(port, body)));
            }
        }

        private void run(int port, byte[] body) {
            long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
            while (System.nanoTime() < deadline) {
                Socket socket;
                try {
                    socket = socket(port);
                } catch (ConnectException refused) {
                    tally.refusedConnections.incrementAndGet();
                    return;
                } catch (IOException e) {
                    tally.refusedConnections.incrementAndGet();
                    return;
                }
                try (socket) {
                    while (true) {
                        OutputStream out = socket.getOutputStream();
                        try {
                            out.write(Http.head("POST", HOOK, body.length));
                            out.write(body);
                            out.flush();
                        } catch (IOException notSent) {
                            tally.resetBeforeAnyByte.incrementAndGet();
                            break;
                        }
                        InputStream in = socket.getInputStream();
                        Http.Response response;
                        try {
                            response = Http.read(in);
                        } catch (EOFException e) {
                            (e.getMessage().equals("connection closed") ? tally.resetBeforeAnyByte : tally.cutMidAnswer).incrementAndGet();
                            break;
                        } catch (SocketException e) {
                            tally.resetBeforeAnyByte.incrementAndGet();
                            break;
                        }
                        tally.answered.add(response.status());
                        if (response.closes()) {
                            break;
                        }
                    }
                } catch (IOException e) {
                    tally.cutMidAnswer.incrementAndGet();
                }
            }
        }

        void join() throws InterruptedException {
            for (Thread thread : threads) {
                thread.join(Duration.ofMinutes(3).toMillis());
            }
        }
    }

    /** {@code count} calls with their headers and half their body sent: in flight until the rest comes. */
    static List<Socket> halfSent(int port, byte[] body, int count) throws IOException {
        List<Socket> calls = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Socket socket = socket(port);
            socket.getOutputStream().write(Http.head("POST", HOOK, body.length));
            socket.getOutputStream().write(body, 0, body.length / 2);
            socket.getOutputStream().flush();
            calls.add(socket);
        }
        return calls;
    }

    static void sendRest(Socket call, byte[] body) throws IOException {
        call.getOutputStream().write(body, body.length / 2, body.length - body.length / 2);
        call.getOutputStream().flush();
    }

    /** The value of a gauge on /metrics. */
    static double metric(int port, String name) throws IOException {
        try (Socket socket = socket(port)) {
            for (String line : Http.exchange(socket, "GET", "/metrics", null).text().split("\n")) {
                if (line.startsWith(name + " ")) {
                    return Double.parseDouble(line.substring(name.length() + 1).trim());
                }
            }
        }
        throw new IllegalStateException("no metric " + name);
    }

    /** Until a connection to {@code port} is refused: the drain has begun, and its listener is closed. */
    static void untilRefused(int port, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            try (Socket probe = new Socket("127.0.0.1", port)) {
                Thread.sleep(5);
            } catch (IOException refused) {
                Thread.sleep(50);
                return;
            }
        }
        throw new AssertionError("the listener on port " + port + " still accepts connections " + timeout + " after SIGTERM");
    }

    static Thread started(Runnable work) {
        Thread thread = new Thread(work);
        thread.start();
        return thread;
    }

    static Socket socket(int port) throws IOException {
        Socket socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(SOCKET_TIMEOUT_MS);
        return socket;
    }
}
