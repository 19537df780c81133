package dev.metahook.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The jar as the image runs it (the Dockerfile's JVM flags, the heap sized from the Deployment's
 * memory limit) under hostile and heavy load: bodies of the largest allowed size at once, small calls
 * during a storm of large ones, distinct huge controller objects, clients sending a byte a second,
 * SIGTERM under load. Asserts outcomes only: every call answered with an allowed status, the process
 * alive, peak resident memory under 80% of the limit, nothing lost on shutdown. The figures of the
 * same loads come from {@code src/bench/reliability}.
 */
class ReliabilityIT {
    private static final double RSS_CEILING = 0.8;
    private static long limit;
    private static byte[] small;

    @BeforeAll
    static void bodies() throws Exception {
        limit = MetahookProcess.containerMemoryLimitBytes();
        small = Bodies.small();
    }

    @Test
    void largestBodiesAtOnceAreAnsweredOrRefusedWithinTheMemoryLimit() throws Exception {
        try (MetahookProcess metahook = MetahookProcess.start("largest-at-once", Map.of())) {
            Scenarios.Tally tally = Scenarios.atOnce(metahook.port(), Bodies.withLargeParent(Bodies.LARGEST, "a"), 32);

            assertTrue(tally.onlyAnswered(200, 503), "every call answered 200 or 503: " + tally);
            assertTrue(tally.count(200) >= 1, "some are answered: " + tally);
            Http.Response refused = tally.examples.get(503);
            if (refused != null) { // whether this load reaches the overload depends on the heap; OverloadTest forces it and always checks the 503
                assertEquals("1", refused.headers().get("retry-after"), refused.headers().toString());
                assertTrue(refused.headers().get("content-type").startsWith("application/problem+json"));
                assertTrue(refused.text().contains("\"status\":503"), refused.text());
            }
            assertAliveUnderTheCeiling(metahook);
        }
    }

    @Test
    void smallCallsAreAnsweredDuringAStormOfLargeOnes() throws Exception {
        try (MetahookProcess metahook = MetahookProcess.start("mixed", Map.of())) {
            byte[] large = Bodies.withLargeParent(15 * 1024 * 1024, "b");
            Scenarios.Tally storm = new Scenarios.Tally();
            Scenarios.Tally smallDuring;
            try (Scenarios.SmallLoad load = new Scenarios.SmallLoad(metahook.port(), small, 64)) {
                for (int round = 0; round < 3; round++) {
                    Scenarios.Tally tally = Scenarios.atOnce(metahook.port(), large, 8);
                    assertTrue(tally.onlyAnswered(200, 503), "round " + round + ": " + tally);
                    storm.add(tally.count(200) > 0 ? 200 : 503);
                }
                smallDuring = load.tally;
            }
            assertTrue(smallDuring.onlyAnswered(200, 503), "small calls answered: " + smallDuring);
            assertTrue(smallDuring.count(200) > 0, "small calls got through the storm: " + smallDuring);
            assertAliveUnderTheCeiling(metahook);
        }
    }

    @Test
    void distinctHugeControllerObjectsDoNotPileUp() throws Exception {
        try (MetahookProcess metahook = MetahookProcess.start("controllers", Map.of())) {
            for (int i = 0; i < 12; i++) {
                try (Socket socket = Scenarios.socket(metahook.port())) {
                    Http.Response response = Http.exchange(socket, "POST", Scenarios.HOOK,
                            Bodies.withLargeController(15 * 1024 * 1024, "controller-" + i));
                    assertEquals(200, response.status(), response.text().length() > 300 ? response.text().substring(0, 300) : response.text());
                }
            }
            assertAliveUnderTheCeiling(metahook);
        }
    }

    @Test
    void aLargeChunkedBodyIsAdmittedAsItArrives() throws Exception {
        try (MetahookProcess metahook = MetahookProcess.start("chunked", Map.of())) {
            byte[] body = Bodies.withLargeParent(15 * 1024 * 1024, "chunked");
            try (Socket socket = Scenarios.socket(metahook.port())) {
                Http.Response response = Http.exchangeChunked(socket, Scenarios.HOOK, body);
                assertEquals(200, response.status(), response.text().length() > 300 ? response.text().substring(0, 300) : response.text());
            }
            assertAliveUnderTheCeiling(metahook);
        }
    }

    @Test
    void clientsSendingAByteASecondDoNotStarveAGoodCall() throws Exception {
        try (MetahookProcess metahook = MetahookProcess.start("slow-clients", Map.of())) {
            Scenarios.SlowOutcome slow = Scenarios.slowClients(metahook.port(), small, 300, Duration.ofSeconds(60));

            assertEquals(200, slow.goodStatus(), "the good call is answered while 300 slow ones are open");
            assertEquals(0, slow.stillOpen(), "every slow body is cut: " + slow);
            assertEquals(0, slow.answeredOther(), "a slow body is answered 408 or closed, nothing else: " + slow);
            assertTrue(slow.answered408() > 0, "the cut bodies are told why: " + slow);
            assertTrue(metahook.loggedCalls(408) >= slow.answered408(), "the log records the 408s sent");
            try (Socket socket = Scenarios.socket(metahook.port())) {
                String metrics = Http.exchange(socket, "GET", "/metrics", null).text();
                assertTrue(metrics.contains("code=\"408\""), "the metrics record the 408s sent");
            }
            assertTrue(metahook.alive());
        }
    }

    @Test
    void headersSentAByteASecondAreCut() throws Exception {
        try (MetahookProcess metahook = MetahookProcess.start("slow-headers", Map.of())) {
            Scenarios.SlowHeaders slow = Scenarios.slowHeaders(metahook.port(), small, 100, Duration.ofSeconds(60));

            assertEquals(200, slow.goodStatus(), "a good call is answered while 100 slow headers are open");
            assertEquals(100, slow.closed(), "every connection trickling its headers is closed");
            assertTrue(metahook.alive());
        }
    }

    @Test
    void sigtermUnderKeepAliveLoadLosesNoAnswer() throws Exception {
        try (MetahookProcess metahook = MetahookProcess.start("drain-load", Map.of("SHUTDOWN_TIMEOUT_SECONDS", "20"))) {
            Scenarios.DrainLoad load = new Scenarios.DrainLoad(metahook.port(), small, 64);
            long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
            while (load.tally.answered.total() < 500 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            metahook.sigterm();
            load.join();

            assertEquals(0, metahook.exitCode(Duration.ofSeconds(60)), "a clean drain exits 0");
            Scenarios.DrainTally seen = load.tally;
            String figures = seen.answered + ", reset before a byte " + seen.resetBeforeAnyByte + ", refused " + seen.refusedConnections;
            assertEquals(0, seen.cutMidAnswer.get(), "no answer is cut half-way: " + figures);
            assertTrue(seen.answered.onlyAnswered(200, 503), seen.answered.toString());
            assertEquals(metahook.loggedCalls(), seen.answered.count(200),
                    "every call the service handled reached its client (the others were refused before they were read): " + figures);
        }
    }

    @Test
    void sigtermWithSlowCallsInFlightAnswersThemAll() throws Exception {
        try (MetahookProcess metahook = MetahookProcess.start("drain-slow", Map.of("SHUTDOWN_TIMEOUT_SECONDS", "20"))) {
            // Half of a 64 KiB body keeps the minimum body rate (1 KiB/s) for half a minute: only the 5 s read idle limit applies.
            byte[] body = Bodies.withLargeParent(64 * 1024, "slow");
            List<Socket> calls = Scenarios.halfSent(metahook.port(), body, 16);
            long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
            while (Scenarios.metric(metahook.port(), "metahook_hook_in_flight") < 16 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            metahook.sigterm();
            metahook.waitForOutput("shutting down", Duration.ofSeconds(30));
            // The drain tells clients to close only once its listener refuses new connections (a client told
            // earlier could reconnect into a listener being closed); a call answered before that is a plain one.
            Scenarios.untilRefused(metahook.port(), Duration.ofSeconds(30));
            for (Socket call : calls) {
                Scenarios.sendRest(call, body);
            }
            for (Socket call : calls) {
                try (call) {
                    Http.Response response = Http.read(call.getInputStream());
                    assertEquals(200, response.status());
                    assertTrue(response.closes(), "answered with Connection: close during the drain");
                }
            }
            assertEquals(0, metahook.exitCode(Duration.ofSeconds(60)), "a clean drain exits 0");
        }
    }

    private static void assertAliveUnderTheCeiling(MetahookProcess metahook) throws Exception {
        assertTrue(metahook.alive(), "the process is up");
        long peak = metahook.peakRssBytes();
        assertTrue(peak <= RSS_CEILING * limit, "peak RSS " + (peak >> 20) + " MiB over 80% of the " + (limit >> 20) + " MiB limit");
        try (Socket socket = Scenarios.socket(metahook.port())) {
            assertEquals(200, Http.exchange(socket, "POST", Scenarios.HOOK, small).status(), "still answers a small call");
        }
    }
}
