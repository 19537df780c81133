package dev.metahook.reliability;

import java.io.IOException;
import java.net.Socket;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A storm of costly bodies against the real process, with a small call every 100 ms while it lasts, made in turn
 * to the storming process and to a peer process with no storm (both warmed by a few small calls first): the load
 * of {@link MemoryShapesIT}. The peer's
 * answers are the machine's own latency at that moment (on a shared machine, what the neighbours cost), so the
 * storm's cost to small calls is told apart from the machine's. Its {@link #main} runs every case of that suite and
 * prints the figures (answers by status, the small calls' latency and the peer's, peak resident memory);
 * {@code src/bench/reliability} runs it.
 */
public final class MemoryStorm {
    private static final long SMALL_CALL_EVERY_MS = 100;
    /** Small calls made to each process before the storm and not counted: a fresh process's first calls are cold (seconds on a busy machine). */
    private static final int WARM_UP_CALLS = 5;

    private MemoryStorm() {
    }

    /**
     * What a storm's calls got, what the small calls during it got, the same small calls made at the same moments
     * to the peer, and the storming process's peak resident memory.
     */
    record Outcome(Scenarios.Tally calls, Scenarios.Tally small, Scenarios.Tally peer, long peakRss) {
        @Override
        public String toString() {
            return "calls " + calls + ", slowest " + calls.percentileMillis(1.0) + " ms; small calls during the storm " + small
                    + ", p50 " + small.percentileMillis(0.5) + " ms, slowest " + small.percentileMillis(1.0) + " ms (the same to the peer: p50 "
                    + peer.percentileMillis(0.5) + " ms, slowest " + peer.percentileMillis(1.0) + " ms); peak RSS "
                    + (peakRss >> 20) + " MiB";
        }
    }

    /** {@code rounds} rounds of {@code count} calls with {@code body} at once, small calls during each, to it and to {@code peer}. */
    static Outcome run(MetahookProcess metahook, MetahookProcess peer, byte[] body, int count, int rounds) throws Exception {
        return run(metahook, peer, Scenarios.HOOK, body, count, rounds);
    }

    /** The same with calls of {@code path}. */
    static Outcome run(MetahookProcess metahook, MetahookProcess peer, String path, byte[] body, int count, int rounds) throws Exception {
        Scenarios.Tally calls = new Scenarios.Tally();
        Scenarios.Tally small = new Scenarios.Tally();
        Scenarios.Tally peerSmall = new Scenarios.Tally();
        byte[] smallBody = Bodies.small();
        for (int i = 0; i < WARM_UP_CALLS; i++) {
            call(metahook.port(), smallBody, new Scenarios.Tally());
            call(peer.port(), smallBody, new Scenarios.Tally());
        }
        for (int round = 0; round < rounds; round++) {
            AtomicBoolean stormOver = new AtomicBoolean();
            Thread prober = Scenarios.started(() -> probe(metahook.port(), peer.port(), smallBody, small, peerSmall, stormOver));
            Scenarios.Tally tally = Scenarios.atOnce(metahook.port(), path, body, count);
            stormOver.set(true);
            prober.join();
            tally.byStatus.forEach((status, n) -> {
                for (long i = 0; i < n.get(); i++) {
                    calls.add(status);
                }
            });
            tally.examples.forEach(calls.examples::putIfAbsent);
            calls.latenciesMicros.addAll(tally.latenciesMicros);
            calls.failures.addAll(tally.failures);
        }
        return new Outcome(calls, small, peerSmall, metahook.peakRssBytes());
    }

    private static void probe(int port, int peerPort, byte[] body, Scenarios.Tally small, Scenarios.Tally peer, AtomicBoolean stormOver) {
        while (!stormOver.get()) {
            call(port, body, small);
            call(peerPort, body, peer);
            try {
                Thread.sleep(SMALL_CALL_EVERY_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static void call(int port, byte[] body, Scenarios.Tally tally) {
        long started = System.nanoTime();
        try (Socket socket = Scenarios.socket(port)) {
            tally.add(Http.exchange(socket, "POST", Scenarios.HOOK, body).status(), started);
        } catch (IOException e) {
            tally.failed(e);
        }
    }

    /** The figures of every storm of {@link MemoryShapesIT}, each on a fresh process. */
    public static void main(String[] args) throws Exception {
        long limit = MetahookProcess.containerMemoryLimitBytes();
        System.out.printf("memory storms: jar with %s, -XX:MaxRAM=%d MiB (the Deployment's limit)%n",
                String.join(" ", MetahookProcess.shippedJvmFlags()), limit >> 20);
        report("4 at once x 3 rounds: 450,000 {} in spec.resources.claims", Map.of(), ShapedBodies.emptyObjects(450_000), 4, 3);
        report("8 at once x 3 rounds: 48,000 spec.env entries", Map.of(), ShapedBodies.env(48_000), 8, 3);
        report("1 x 2 rounds: 300,000 spec.env entries", Map.of(), ShapedBodies.env(300_000), 1, 2);
        report("1 x 2 rounds: invalid spec, 81,509 ConfigMaps", Map.of(), ShapedBodies.invalidSpecWithConfigMaps(81_509), 1, 2);
        report("2 at once x 2 rounds: 2,000 objects 990 deep in parent.spec", Map.of(), ShapedBodies.deep(2_000, 990, false), 2, 2);
        report("2 at once x 2 rounds: 2,000 objects 990 deep in a child", Map.of(), ShapedBodies.deep(2_000, 990, true), 2, 2);
        report("MAX_BODY_SIZE=1Gi, 1 x 2 rounds: one 120 MiB body", Map.of("MAX_BODY_SIZE", "1Gi"), ShapedBodies.oneString(120L << 20), 1, 2);
        report("8 at once x 3 rounds: one 15 MiB string", Map.of(), ShapedBodies.oneString(15L << 20), 8, 3);
    }

    private static void report(String name, Map<String, String> env, byte[] body, int count, int rounds) throws Exception {
        try (MetahookProcess peer = MetahookProcess.start("storm-peer", Map.of()); MetahookProcess metahook = MetahookProcess.start("storm", env)) {
            Outcome outcome = run(metahook, peer, body, count, rounds);
            System.out.printf("%s (%.2f MiB each): %s; alive %b%n", name, body.length / 1048576.0, outcome, metahook.alive());
        }
    }
}
