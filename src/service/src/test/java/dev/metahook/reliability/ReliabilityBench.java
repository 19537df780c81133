package dev.metahook.reliability;

import java.io.IOException;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The figures behind "Limits under load" in docs/production.md: the jar as the image runs it under the loads of
 * {@link ReliabilityIT}, printing peak resident memory, answers by status, latencies and losses.
 * Run by {@code src/bench/reliability}.
 */
public final class ReliabilityBench {
    private static final Duration WARM_UP = Duration.ofSeconds(10);

    private ReliabilityBench() {
    }

    /** Warms the process: the figures are about load, not about the JIT compiler. */
    private static MetahookProcess warm(MetahookProcess metahook, byte[] small, byte[] largest) throws Exception {
        try (Scenarios.SmallLoad load = new Scenarios.SmallLoad(metahook.port(), small, 16)) {
            Thread.sleep(WARM_UP.toMillis());
        }
        for (int i = 0; i < 3; i++) {
            Scenarios.atOnce(metahook.port(), largest, 1);
        }
        return metahook;
    }

    public static void main(String[] args) throws Exception {
        long limit = MetahookProcess.containerMemoryLimitBytes();
        System.out.printf("metahook reliability: jar with %s, -XX:MaxRAM=%d MiB (the Deployment's limit), %d cores%n",
                String.join(" ", MetahookProcess.shippedJvmFlags()), limit >> 20, Runtime.getRuntime().availableProcessors());
        byte[] small = Bodies.small();
        byte[] largest = Bodies.withLargeParent(Bodies.LARGEST, "a");
        int rounds = Integer.parseInt(System.getenv().getOrDefault("ROUNDS", "3"));
        System.out.printf("(every process warmed first: %d s of c16 small calls and 3 largest bodies one by one)%n", WARM_UP.toSeconds());

        try (MetahookProcess metahook = warm(MetahookProcess.start("bench-largest", Map.of()), small, largest)) {
            Scenarios.Tally tally = Scenarios.atOnce(metahook.port(), largest, 32);
            System.out.printf("32 bodies of %d bytes at once: answers %s, slowest %d ms; alive %b; peak RSS %d MiB (%.0f%% of the limit)%n",
                    largest.length, tally, tally.percentileMillis(1.0), metahook.alive(), metahook.peakRssBytes() >> 20,
                    100.0 * metahook.peakRssBytes() / limit);
        }
        try (MetahookProcess metahook = warm(MetahookProcess.start("bench-mixed", Map.of()), small, largest)) {
            byte[] large = Bodies.withLargeParent(15 * 1024 * 1024, "b");
            Scenarios.Tally before;
            try (Scenarios.SmallLoad quiet = new Scenarios.SmallLoad(metahook.port(), small, 64)) {
                Thread.sleep(5000);
                before = quiet.tally;
            }
            Scenarios.Tally storm = new Scenarios.Tally();
            Scenarios.Tally smallDuring;
            try (Scenarios.SmallLoad load = new Scenarios.SmallLoad(metahook.port(), small, 64)) {
                for (int round = 0; round < rounds; round++) {
                    Scenarios.Tally tally = Scenarios.atOnce(metahook.port(), large, 8);
                    tally.byStatus.forEach((status, count) -> {
                        for (long i = 0; i < count.get(); i++) {
                            storm.add(status);
                        }
                    });
                }
                smallDuring = load.tally;
            }
            System.out.printf("c64 small alone (5 s): %d answers %s, p50 %d ms, p99 %d ms%n", before.total(), before,
                    before.percentileMillis(0.5), before.percentileMillis(0.99));
            System.out.printf("c64 small + %d rounds of 8 x 15 MiB: large answers %s; small answers %s, p50 %d ms, p99 %d ms, max %d ms; "
                            + "alive %b; peak RSS %d MiB (%.0f%% of the limit)%n", rounds, storm, smallDuring,
                    smallDuring.percentileMillis(0.5), smallDuring.percentileMillis(0.99), smallDuring.percentileMillis(1.0),
                    metahook.alive(), metahook.peakRssBytes() >> 20, 100.0 * metahook.peakRssBytes() / limit);
        }
        try (MetahookProcess metahook = warm(MetahookProcess.start("bench-controllers", Map.of()), small, largest)) {
            Scenarios.Tally tally = new Scenarios.Tally();
            for (int i = 0; i < 16; i++) {
                try (Socket socket = Scenarios.socket(metahook.port())) {
                    tally.add(Http.exchange(socket, "POST", Scenarios.HOOK, Bodies.withLargeController(15 * 1024 * 1024, "c" + i)).status());
                }
            }
            System.out.printf("16 calls, each with a distinct 15 MiB controller object: answers %s; alive %b; peak RSS %d MiB%n", tally,
                    metahook.alive(), metahook.peakRssBytes() >> 20);
        }
        try (MetahookProcess metahook = warm(MetahookProcess.start("bench-slow", Map.of()), small, largest)) {
            Scenarios.SlowOutcome slow = Scenarios.slowClients(metahook.port(), small, 300, Duration.ofSeconds(30));
            System.out.printf("300 clients sending a body 1 byte/s: good call %d in %d ms; slow ones: %d answered 408, %d answered otherwise, "
                            + "%d closed unanswered, %d still open after 30 s; logged 408s %d%n", slow.goodStatus(), slow.goodMillis(),
                    slow.answered408(), slow.answeredOther(), slow.closedUnanswered(), slow.stillOpen(), metahook.loggedCalls(408));
        }
        try (MetahookProcess metahook = warm(MetahookProcess.start("bench-slow-headers", Map.of()), small, largest)) {
            long started = System.nanoTime();
            Scenarios.SlowHeaders slow = Scenarios.slowHeaders(metahook.port(), small, 300, Duration.ofSeconds(60));
            System.out.printf("300 clients sending headers 1 byte/s: good call %d in %d ms; %d of them closed within %d s%n",
                    slow.goodStatus(), slow.goodMillis(), slow.closed(), (System.nanoTime() - started) / 1_000_000_000);
        }
        try (MetahookProcess metahook = warm(MetahookProcess.start("bench-drain", Map.of("SHUTDOWN_TIMEOUT_SECONDS", "20")), small, largest)) {
            long warmCalls = metahook.loggedCalls();
            Scenarios.DrainLoad load = new Scenarios.DrainLoad(metahook.port(), small, 64);
            while (load.tally.answered.total() < 2000) {
                Thread.sleep(50);
            }
            long signalled = System.nanoTime();
            metahook.sigterm();
            load.join();
            int exit = metahook.exitCode(Duration.ofSeconds(40));
            long drainMillis = (System.nanoTime() - signalled) / 1_000_000;
            Scenarios.DrainTally t = load.tally;
            System.out.printf("SIGTERM under c64 keep-alive: answered %s, refused connections %d, reset before a byte %d, cut mid-answer %d; "
                            + "logged %d, lost (logged, never received) %d; exit %d after %d ms%n", t.answered, t.refusedConnections.get(),
                    t.resetBeforeAnyByte.get(), t.cutMidAnswer.get(), metahook.loggedCalls() - warmCalls,
                    metahook.loggedCalls() - warmCalls - t.answered.count(200), exit, drainMillis);
        }
        try (MetahookProcess metahook = warm(MetahookProcess.start("bench-drain-slow", Map.of("SHUTDOWN_TIMEOUT_SECONDS", "20")), small, largest)) {
            byte[] body = Bodies.withLargeParent(64 * 1024, "slow");
            List<Socket> calls = Scenarios.halfSent(metahook.port(), body, 16);
            while (Scenarios.metric(metahook.port(), "metahook_hook_in_flight") < 16) {
                Thread.sleep(20);
            }
            metahook.sigterm();
            metahook.waitForOutput("shutting down", Duration.ofSeconds(20));
            Scenarios.Tally tally = new Scenarios.Tally();
            long closing = 0;
            for (Socket call : calls) {
                Scenarios.sendRest(call, body);
            }
            for (Socket call : calls) {
                try (call) {
                    Http.Response response = Http.read(call.getInputStream());
                    tally.add(response.status());
                    closing += response.closes() ? 1 : 0;
                } catch (IOException e) {
                    tally.add(-1);
                }
            }
            System.out.printf("SIGTERM with 16 slow calls in flight: answers %s (%d with Connection: close); exit %d%n", tally, closing,
                    metahook.exitCode(Duration.ofSeconds(40)));
        }
    }
}
