package dev.metahook.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.Socket;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The jar as the image runs it (the Dockerfile's JVM flags, the heap sized from the Deployment's
 * memory limit) under the bodies of issue 23 that killed it before the memory model: bodies made of
 * many small JSON values, cheap in bytes and dear in heap. Each storm asserts what Metacontroller
 * would see: every call answered {@code 200}, {@code 503}, {@code 413} or {@code 400} (never a reset,
 * never an {@code OutOfMemoryError}), the process alive, peak resident memory at most 80% of the
 * limit, and the small calls made every 100 ms while the storm is in flight all answered {@code 200}, their
 * median within {@link #SMALL_CALL_MARGIN} of the same calls made at the same moments to a peer process with no
 * storm (the machine's own latency: on a shared 2-core machine the neighbours move every absolute figure, so the
 * storm's cost is measured against the peer, never against the clock). {@link MemoryStorm} prints the figures of
 * each run.
 */
class MemoryShapesIT {
    private static final double RSS_CEILING = 0.8;
    /**
     * How much later than the peer's the small calls' median may be: a small call that waited for memory behind the
     * storm would wait up to the admission wait (2 s); the storm's own work on the same two cores costs far less.
     */
    private static final long SMALL_CALL_MARGIN = 1000;
    private static long limit;
    private static MetahookProcess peer;

    @BeforeAll
    static void limitAndPeer() throws Exception {
        limit = MetahookProcess.containerMemoryLimitBytes();
        peer = MetahookProcess.start("storm-peer", Map.of());
    }

    @AfterAll
    static void stopPeer() throws InterruptedException {
        peer.close();
    }

    @Test
    void fourConcurrentSyncsOfEmptyObjectsInAnOpenField() throws Exception {
        storm("empty-objects", Map.of(), ShapedBodies.emptyObjects(450_000), 4, 3, 200, 503, 413);
    }

    @Test
    void eightConcurrentSyncsWithLongEnvLists() throws Exception {
        MemoryStorm.Outcome outcome = storm("env-48k", Map.of(), ShapedBodies.env(48_000), 8, 3, 200, 503);
        assertTrue(outcome.calls().count(200) > 0, "some of them are answered: " + outcome);
    }

    @Test
    void oneSyncWith300000EnvEntries() throws Exception {
        storm("env-300k", Map.of(), ShapedBodies.env(300_000), 1, 2, 200, 503, 413);
    }

    /** A call no budget can hold is told so: {@code 413}, never {@code 503} and {@code Retry-After}, whatever claim passes the limit. */
    @Test
    void anInvalidSpecWith81509TinyConfigMapsIsRefusedWith413() throws Exception {
        MemoryStorm.Outcome outcome = storm("configmaps", Map.of(), ShapedBodies.invalidSpecWithConfigMaps(81_509), 1, 2, 413);
        assertTrue(outcome.calls().examples.get(413).text().contains("observed objects"), outcome.toString());
    }

    /**
     * Bodies under 1 MiB that are read in the small calls' share but whose work (a large last-applied annotation
     * parsed and typed) is large: the small calls made meanwhile are answered {@code 200} at once, as the memory
     * model promises, because a call leaves the small share before it waits for the working share.
     */
    @Test
    void thirtyTwoFinalizeCallsWithLargeLastAppliedAnnotationsDoNotHoldUpSmallCalls() throws Exception {
        byte[] body = ShapedBodies.databaseFinalizeWithLargeLastApplied(550_000);
        assertTrue(body.length < 960 * 1024, "read in the small share: " + body.length);
        storm("finalize-storm", Map.of(), "/database/finalize", body, 32, 2, 200, 503);
    }

    @Test
    void objectsNested990DeepInTheParentAreRefusedWith400() throws Exception {
        MemoryStorm.Outcome outcome = storm("deep-parent", Map.of(), ShapedBodies.deep(2_000, 990, false), 2, 2, 400);
        assertTrue(outcome.calls().examples.get(400).text().contains("nested deeper than 200 levels"), outcome.toString());
    }

    @Test
    void objectsNested990DeepInAChildAreRefusedWith400() throws Exception {
        storm("deep-child", Map.of(), ShapedBodies.deep(2_000, 990, true), 2, 2, 400);
    }

    @Test
    void a120MiBBodyWithTheLargestBodyLimitIsRefusedWith413() throws Exception {
        MemoryStorm.Outcome outcome = storm("body-120m", Map.of("MAX_BODY_SIZE", "1Gi"), ShapedBodies.oneString(120L << 20), 1, 2, 413);
        assertTrue(outcome.calls().examples.get(413).text().contains("memory"), outcome.toString());
    }

    /**
     * {@code rounds} rounds of {@code count} calls with {@code body} at once against a fresh process,
     * with small calls during each; asserts the outcome and returns it.
     */
    private static MemoryStorm.Outcome storm(String name, Map<String, String> env, byte[] body, int count, int rounds, int... allowed)
            throws Exception {
        return storm(name, env, Scenarios.HOOK, body, count, rounds, allowed);
    }

    private static MemoryStorm.Outcome storm(String name, Map<String, String> env, String path, byte[] body, int count, int rounds,
                                             int... allowed) throws Exception {
        try (MetahookProcess metahook = MetahookProcess.start(name, env)) {
            MemoryStorm.Outcome outcome = MemoryStorm.run(metahook, peer, path, body, count, rounds);
            System.out.println(name + ": " + outcome);
            assertTrue(metahook.alive(), "the process is up: " + outcome);
            assertTrue(outcome.calls().onlyAnswered(allowed), "every call answered with one of " + Arrays.toString(allowed)
                    + ": " + outcome);
            assertTrue(outcome.peakRss() <= RSS_CEILING * limit, "peak RSS " + (outcome.peakRss() >> 20) + " MiB over 80% of the "
                    + (limit >> 20) + " MiB limit");
            assertTrue(outcome.small().total() > 0 && outcome.small().onlyAnswered(200), "small calls during the storms: " + outcome);
            assertTrue(outcome.small().percentileMillis(0.5) <= outcome.peer().percentileMillis(0.5) + SMALL_CALL_MARGIN,
                    "the small calls during the storms are answered about as fast as the same calls to a peer without a storm: " + outcome);
            try (Socket socket = Scenarios.socket(metahook.port())) {
                assertEquals(200, Http.exchange(socket, "POST", Scenarios.HOOK, Bodies.small()).status(), "still answers a small call");
            }
            return outcome;
        }
    }
}
