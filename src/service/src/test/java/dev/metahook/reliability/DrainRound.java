package dev.metahook.reliability;

import java.io.IOException;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * One round of the drain under load, shared by {@link DrainIT} (which asserts) and {@link DrainLoad} (which
 * prints): a fresh {@code target/metahook.jar} with the image's JVM flags, clients of one kind sending the
 * WebApp sync back to back ({@link KeepAliveClients}), and SIGTERM three seconds in, once each client has made
 * a few calls (on a machine so busy that a cold process takes longer). Then what the clients saw, what the
 * service logged, and its exit code.
 */
final class DrainRound {
    private static final Duration LOAD_BEFORE_SIGTERM = Duration.ofSeconds(3);
    static final long CALLS_PER_CLIENT = 5;
    private static final Map<String, String> ENV = Map.of("SHUTDOWN_TIMEOUT_SECONDS", "20");

    /**
     * What a round saw: the clients' counts, the process's exit code and how long after SIGTERM it came, and the
     * calls the service logged with a status that no client received.
     */
    record Outcome(KeepAliveClients load, int exit, long exitMillis, long notReceived) {
        /** Requests written whole that got no whole answer, before SIGTERM or after it, or logged and never received. */
        long lost() {
            return load.lost.get() + load.lostBeforeSigterm.get() + load.notWritten.get() + notReceived;
        }

        @Override
        public String toString() {
            return load + "; logged with a status and not received " + notReceived + "; exit " + exit + " after " + exitMillis + " ms";
        }
    }

    /** What a round with a forced loss saw: the exit code, the client the service must name, and the lines that name requests. */
    record ForcedLoss(int exit, String client, List<String> unanswered) {
        /** How many of the lines name the call by method, path and client. */
        long naming() {
            return unanswered.stream().filter(line -> line.contains("POST " + Scenarios.HOOK + " from " + client)).count();
        }

        @Override
        public String toString() {
            return "exit " + exit + ", the call from " + client + " named " + naming() + " times in the log:\n  "
                    + String.join("\n  ", unanswered);
        }
    }

    private DrainRound() {
    }

    static Outcome run(String name, KeepAliveClients.Kind kind, int clients, byte[] body) throws Exception {
        try (MetahookProcess metahook = MetahookProcess.start(name, ENV)) {
            KeepAliveClients load = new KeepAliveClients(kind, metahook.port(), body, clients);
            Thread.sleep(LOAD_BEFORE_SIGTERM.toMillis());
            long bound = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (load.answered.get() < CALLS_PER_CLIENT * clients && System.nanoTime() < bound) {
                Thread.sleep(20);
            }
            long signalled = System.nanoTime();
            load.sigtermAt(signalled);
            metahook.sigterm();
            int exit = metahook.exitCode(Duration.ofSeconds(60));
            long exitMillis = (System.nanoTime() - signalled) / 1_000_000;
            load.join();
            long notReceived = Math.max(0, metahook.loggedCalls() - metahook.loggedCalls(0) - load.answered.get());
            return new Outcome(load, exit, exitMillis, notReceived);
        }
    }

    /** A call half sent before SIGTERM, in flight in the service, reset by its client once the drain began. */
    static ForcedLoss resetDuringTheDrain(byte[] body) throws Exception {
        try (MetahookProcess metahook = MetahookProcess.start("drain-forced-reset", ENV)) {
            Socket call = inFlight(metahook, body);
            metahook.sigterm();
            // Once the listener refuses, the drain has begun: the reset call is one that arrived and was not answered.
            Scenarios.untilRefused(metahook.port(), Duration.ofSeconds(30));
            call.setSoLinger(true, 0);
            call.close();
            return forced(metahook, call);
        }
    }

    /** A call half sent before SIGTERM and never finished, still in flight when the drain's time is up. */
    static ForcedLoss inFlightAtTheDeadline(byte[] body) throws Exception {
        try (MetahookProcess metahook = MetahookProcess.start("drain-forced-deadline", Map.of("SHUTDOWN_TIMEOUT_SECONDS", "1"))) {
            try (Socket call = inFlight(metahook, body)) {
                metahook.sigterm();
                return forced(metahook, call);
            }
        }
    }

    private static Socket inFlight(MetahookProcess metahook, byte[] body) throws Exception {
        Socket call = Scenarios.halfSent(metahook.port(), body, 1).get(0);
        long bound = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (Scenarios.metric(metahook.port(), "metahook_hook_in_flight") < 1 && System.nanoTime() < bound) {
            Thread.sleep(20);
        }
        return call;
    }

    private static ForcedLoss forced(MetahookProcess metahook, Socket call) throws InterruptedException, IOException {
        int exit = metahook.exitCode(Duration.ofSeconds(60));
        List<String> lines = metahook.output().lines().filter(line -> line.contains("not answered")).toList();
        return new ForcedLoss(exit, "127.0.0.1:" + call.getLocalPort(), lines);
    }
}
