package dev.metahook.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * SIGTERM to the jar as the image runs it while clients send hook calls back to back ({@link DrainRound},
 * {@link KeepAliveClients}: kept alive, pipelining two requests, or a connection per request), round after
 * round on a fresh process: no request written whole goes unanswered (before SIGTERM or after it), no answer
 * the service logged fails to reach its client, no connection is closed under a client except after an answer
 * that said {@code Connection: close} (a client connecting once the listener is closed is refused before it
 * writes anything), every answer is 200 or 503, and the process exits 0. Kept alive, every answer to a request
 * sent after the first answer that said close says close too; answers written between SIGTERM and the
 * listener's close do not say it (by design: the drain says close only once the listener refuses, so a client
 * told to close does not reconnect into a listener about to close), and their connections get it with their
 * next answer; the test prints how many there were. The rounds are {@code -Ddrain.rounds16},
 * {@code -Ddrain.rounds64}, {@code -Ddrain.pipelining64}, {@code -Ddrain.perRequest16} and
 * {@code -Ddrain.perRequest64} (few by default, for CI time on a shared machine; {@code src/bench/drain} runs
 * 20 of each kind).
 * <p>
 * With a connection per request, the connections the kernel still held in the listener's queue when it closed
 * are reset (a client connecting in the instant between the drain's last accept and the close, or through a
 * pause of the service's JVM there): counted and printed apart, and asserted to come in the one burst of that
 * close; no user-space server on Linux closes that window (docs/production.md, Shutdown).
 * <p>
 * A loss forced on the service makes it exit 1 and name the call, once: a client that resets its call during the
 * drain, and a call still in flight at the drain's deadline.
 */
class DrainIT {
    /** How far apart the clients may see the resets of the listener's one close (their threads wake late on a busy machine). */
    private static final Duration RESET_BURST = Duration.ofMillis(500);
    private static byte[] small;

    @BeforeAll
    static void body() throws Exception {
        small = Bodies.small();
    }

    @Test
    void sixteenKeepAliveClientsLoseNothing() throws Exception {
        rounds(KeepAliveClients.Kind.KEPT_ALIVE, 16, Integer.getInteger("drain.rounds16", 3));
    }

    @Test
    void sixtyFourKeepAliveClientsLoseNothing() throws Exception {
        rounds(KeepAliveClients.Kind.KEPT_ALIVE, 64, Integer.getInteger("drain.rounds64", 3));
    }

    @Test
    void sixtyFourPipeliningClientsLoseNothing() throws Exception {
        rounds(KeepAliveClients.Kind.PIPELINING, 64, Integer.getInteger("drain.pipelining64", 2));
    }

    @Test
    void sixteenClientsWithAConnectionPerRequestLoseNothingButTheClosingQueuesResets() throws Exception {
        rounds(KeepAliveClients.Kind.CONNECTION_PER_REQUEST, 16, Integer.getInteger("drain.perRequest16", 2));
    }

    @Test
    void sixtyFourClientsWithAConnectionPerRequestLoseNothingButTheClosingQueuesResets() throws Exception {
        rounds(KeepAliveClients.Kind.CONNECTION_PER_REQUEST, 64, Integer.getInteger("drain.perRequest64", 2));
    }

    @Test
    void aCallItsClientResetsDuringTheDrainMakesTheServiceExit1AndIsNamedInTheLog() throws Exception {
        exitsOneNamingTheCall("a call reset by its client during the drain", DrainRound.resetDuringTheDrain(small));
    }

    @Test
    void aCallStillInFlightAtTheDrainsDeadlineMakesTheServiceExit1AndIsNamedInTheLog() throws Exception {
        exitsOneNamingTheCall("a call in flight at the drain's deadline", DrainRound.inFlightAtTheDeadline(small));
    }

    private static void exitsOneNamingTheCall(String what, DrainRound.ForcedLoss forced) {
        System.out.println("DrainIT, " + what + ": " + forced);
        assertEquals(1, forced.exit(), "a request that arrived and was not answered: " + forced);
        assertEquals(1, forced.naming(), "the log names the call, once: " + forced);
    }

    private static void rounds(KeepAliveClients.Kind kind, int clients, int rounds) throws Exception {
        List<String> figures = new ArrayList<>();
        long lost = 0;
        long resets = 0;
        for (int round = 0; round < rounds; round++) {
            DrainRound.Outcome outcome = DrainRound.run("drain-" + kind + "-" + clients + "-" + round, kind, clients, small);
            KeepAliveClients load = outcome.load();
            String seen = "round " + round + ": " + outcome;
            figures.add(seen);
            lost += outcome.lost();
            resets += load.resetInTheClosingQueue.get();

            assertEquals(0, outcome.exit(), "a clean drain exits 0: " + seen);
            assertEquals(0, outcome.lost(), "every request written whole is answered, and every answer logged is received: " + seen);
            // The one loss left: a connection the kernel queued between the drain's last accept and the listener's
            // close is reset by the close, all of them in that one instant. A pause of the service's JVM (a collection,
            // its thread descheduled on a busy machine) between the two widens the window to the pause. Counted and
            // printed, never hidden; a reset at any other moment fails.
            assertTrue(load.closingQueueResetSpreadMillis() <= RESET_BURST.toMillis(),
                    "every reset in the closing listener's queue came in one burst, at its close: " + seen);
            assertEquals(0, load.answeredOther.get(), "every answer is 200 or 503: " + seen);
            assertEquals(0, load.refusedKeepingOpen.get(), "a 503 closes the connection: " + seen);
            assertEquals(0, load.keptOpenAfterTheDrainBegan.get(), "every answer after the first that said close says close: " + seen);
            assertEquals(clients, load.refusedConnections.get(), "every client ended on a refused connection: " + seen);
            assertTrue(load.answeredClose.get() >= clients, "each connection ended on an answer saying close: " + seen);
            assertTrue(load.answered.get() >= DrainRound.CALLS_PER_CLIENT * clients,
                    "each client made a few calls (kept alive: on the same connection): " + seen);
        }
        System.out.printf("DrainIT %s %d, %d rounds, lost %d, reset in the closing queue %d:%n  %s%n",
                kind, clients, rounds, lost, resets, String.join("\n  ", figures));
    }
}
