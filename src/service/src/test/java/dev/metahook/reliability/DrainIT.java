package dev.metahook.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * SIGTERM to the jar as the image runs it while clients send hook calls back to back
 * ({@link KeepAliveClients}: kept alive, or a connection per request), three seconds into the load (and
 * once each client has made a few calls, on a machine so busy that a cold process takes longer), round
 * after round on a fresh process: no request written whole goes unanswered, no connection is closed
 * under a client except after an answer that said {@code Connection: close} (a client connecting once
 * the listener is closed is refused before it writes anything), every answer is 200 or 503, and the
 * process exits 0. Kept alive, every answer to a request sent after the first answer that said close
 * says close too; answers written between SIGTERM and the listener's close do not say it (by design:
 * the drain says close only once the listener refuses, so a client told to close does not reconnect
 * into a listener about to close), and their connections get it with their next answer; the test
 * prints how many there were. The rounds are {@code -Ddrain.rounds16}, {@code -Ddrain.rounds64},
 * {@code -Ddrain.perRequest16} and {@code -Ddrain.perRequest64} (issue 36's count is 20 each; the
 * defaults are fewer, for CI time on a shared machine).
 * <p>
 * A request lost before SIGTERM is counted and printed, not asserted: on a machine so overloaded
 * that a request waits more than 5 s for a thread to start handling it, Jetty's stream idle timeout
 * (the body read limit, {@code BodyIntake.READ_IDLE_TIMEOUT}) fails it unanswered; that is no part of
 * the drain. With a connection per request, the connections the kernel still held in the listener's
 * queue when it closed are reset (a client connecting in the instant between the drain's last accept
 * and the close, or through a pause of the service's JVM there): counted and printed apart, and
 * asserted to come in the one burst of that close; no user-space server on Linux closes that window
 * (docs/production.md, Shutdown).
 */
class DrainIT {
    private static final Duration LOAD_BEFORE_SIGTERM = Duration.ofSeconds(3);
    private static final long CALLS_PER_CLIENT = 5;
    /** How far apart the clients may see the resets of the listener's one close (their threads wake late on a busy machine). */
    private static final Duration RESET_BURST = Duration.ofMillis(500);
    private static byte[] small;

    @BeforeAll
    static void body() throws Exception {
        small = Bodies.small();
    }

    @Test
    void sixteenKeepAliveClientsLoseNothing() throws Exception {
        rounds(16, Integer.getInteger("drain.rounds16", 4));
    }

    @Test
    void sixtyFourKeepAliveClientsLoseNothing() throws Exception {
        rounds(64, Integer.getInteger("drain.rounds64", 3));
    }

    @Test
    void sixteenClientsWithAConnectionPerRequestLoseNothingButTheClosingQueuesResets() throws Exception {
        rounds(16, Integer.getInteger("drain.perRequest16", 2), true);
    }

    @Test
    void sixtyFourClientsWithAConnectionPerRequestLoseNothingButTheClosingQueuesResets() throws Exception {
        rounds(64, Integer.getInteger("drain.perRequest64", 3), true);
    }

    private static void rounds(int clients, int rounds) throws Exception {
        rounds(clients, rounds, false);
    }

    private static void rounds(int clients, int rounds, boolean perRequest) throws Exception {
        List<String> figures = new ArrayList<>();
        long lost = 0;
        long lostBefore = 0;
        long resets = 0;
        for (int round = 0; round < rounds; round++) {
            try (MetahookProcess metahook = MetahookProcess.start("drain-" + (perRequest ? "p" : "c") + clients + "-" + round, Map.of("SHUTDOWN_TIMEOUT_SECONDS", "20"))) {
                KeepAliveClients load = new KeepAliveClients(metahook.port(), small, clients, perRequest);
                Thread.sleep(LOAD_BEFORE_SIGTERM.toMillis());
                // On a busy machine a cold process answers slowly: every connection should have been reused a few times.
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
                String seen = "round " + round + ": " + load + "; exit " + exit + " after " + exitMillis + " ms";
                figures.add(seen);
                lost += load.lost.get() + load.notWritten.get();
                lostBefore += load.lostBeforeSigterm.get();
                resets += load.resetInTheClosingQueue.get();

                assertEquals(0, exit, "a clean drain exits 0: " + seen);
                assertEquals(0, load.lost.get(), "every request written whole is answered: " + seen);
                // The one loss left (issue 36, L2): a connection the kernel queued between the drain's last accept and the
                // listener's close is reset by the close, all of them in that one instant. A pause of the service's JVM
                // (a collection, its thread descheduled on a busy machine) between the two widens the window to the pause:
                // CI saw 11 in one round. Counted and printed, never hidden; a reset at any other moment fails.
                assertTrue(load.closingQueueResetSpreadMillis() <= RESET_BURST.toMillis(),
                        "every reset in the closing listener's queue came in one burst, at its close: " + seen);
                assertEquals(0, load.notWritten.get(), "no connection is closed under a client writing a request: " + seen);
                assertEquals(0, load.answeredOther.get(), "every answer is 200 or 503: " + seen);
                assertEquals(0, load.refusedKeepingOpen.get(), "a 503 closes the connection: " + seen);
                assertEquals(0, load.keptOpenAfterTheDrainBegan.get(), "every answer after the first that said close says close: " + seen);
                assertEquals(clients, load.refusedConnections.get(), "every client ended on a refused connection: " + seen);
                assertTrue(load.answeredClose.get() >= clients, "each connection ended on an answer saying close: " + seen);
                assertTrue(load.answered.get() >= CALLS_PER_CLIENT * clients, "each client made a few calls (kept alive: on the same connection): " + seen);
            }
        }
        System.out.printf("DrainIT %s%d, %d rounds, lost %d after SIGTERM (%d before), reset in the closing queue %d:%n  %s%n",
                perRequest ? "p" : "c", clients, rounds, lost, lostBefore, resets,
                String.join("\n  ", figures));
    }
}
