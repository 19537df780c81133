package dev.metahook.reliability;

import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The drain under load, measured: round after round on a fresh {@code target/metahook.jar} (the image's
 * JVM flags), clients send the WebApp sync back to back and SIGTERM comes three seconds in (once each
 * client has made a few calls). Three kinds of client ({@link KeepAliveClients}): kept alive,
 * pipelining two requests at a time, and a connection per request; the machine kept busy by busy loops
 * in this JVM. Each round prints the requests written whole, answered, lost (no whole answer, after
 * SIGTERM and before it), the resets of the closing listener's queue (the kernel's, at the one instant
 * the listener closes), the answers the service logged that no client received, and the exit code.
 * A last round forces a loss (a client that sends part of a call and resets it during the drain):
 * its exit code must be 1.
 *
 * <p>Not a test (it takes minutes, and its figures are the point): from {@code src/service}, after
 * {@code mvn -B -DskipTests package -pl src/service -am} and a test-compile,
 * {@code java -cp target/test-classes:target/classes:<test classpath> dev.metahook.reliability.DrainLoad [rounds] [clients] [busy loops] [kinds]}
 * (20, 64, 2 and {@code KEPT_ALIVE,PIPELINING,CONNECTION_PER_REQUEST} unless given), in a directory whose
 * {@code target/metahook.jar} no build replaces while it runs. Exits 1 when any request was lost or a round's exit code was wrong.
 */
public final class DrainLoad {
    private static final Duration LOAD_BEFORE_SIGTERM = Duration.ofSeconds(3);
    private static final long CALLS_PER_CLIENT = 5;

    private enum Kind { KEPT_ALIVE, PIPELINING, CONNECTION_PER_REQUEST }

    /** What one round saw: the line it prints, the requests lost, the exit code. */
    private record Round(String seen, long lost, int exit) {
    }

    private DrainLoad() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        int clients = args.length > 1 ? Integer.parseInt(args[1]) : 64;
        int busy = args.length > 2 ? Integer.parseInt(args[2]) : 2;
        List<Kind> kinds = args.length > 3 ? java.util.Arrays.stream(args[3].split(",")).map(Kind::valueOf).toList() : List.of(Kind.values());
        List<Thread> loops = busyLoops(busy);
        byte[] body = Bodies.small();
        boolean clean = true;
        for (Kind kind : kinds) {
            long lost = 0;
            long withLoss = 0;
            List<Integer> exits = new ArrayList<>();
            for (int round = 0; round < rounds; round++) {
                Round seen = round(kind, round, clients, body);
                System.out.println(kind + " " + clients + " round " + round + ": " + seen.seen());
                lost += seen.lost();
                withLoss += seen.lost() > 0 ? 1 : 0;
                exits.add(seen.exit());
            }
            System.out.printf("%s: %d rounds, %d requests lost in %d rounds, exit codes %s%n", kind, rounds, lost, withLoss, exits);
            clean &= lost == 0 && exits.stream().allMatch(code -> code == 0);
        }
        int forced = forcedLoss(body);
        System.out.println("a client that sends part of a call and resets it during the drain: exit " + forced);
        clean &= forced == 1;
        loops.forEach(Thread::interrupt);
        System.exit(clean ? 0 : 1);
    }

    private static Round round(Kind kind, int round, int clients, byte[] body) throws Exception {
        try (MetahookProcess metahook = MetahookProcess.start("drainload-" + kind + "-" + round, Map.of("SHUTDOWN_TIMEOUT_SECONDS", "20"))) {
            KeepAliveClients load = switch (kind) {
                case KEPT_ALIVE -> new KeepAliveClients(metahook.port(), body, clients, false);
                case PIPELINING -> KeepAliveClients.pipelining(metahook.port(), body, clients);
                case CONNECTION_PER_REQUEST -> new KeepAliveClients(metahook.port(), body, clients, true);
            };
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
            String seen = load + "; logged with a status and not received " + notReceived + "; exit " + exit + " after " + exitMillis + " ms";
            return new Round(seen, load.lost.get() + load.lostBeforeSigterm.get() + load.notWritten.get() + notReceived, exit);
        }
    }

    /** A call half sent before SIGTERM, in flight in the service, reset by its client once the drain began: the exit code. */
    private static int forcedLoss(byte[] body) throws Exception {
        try (MetahookProcess metahook = MetahookProcess.start("drainload-forced-loss", Map.of("SHUTDOWN_TIMEOUT_SECONDS", "20"))) {
            Socket call = Scenarios.halfSent(metahook.port(), body, 1).get(0);
            long bound = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (Scenarios.metric(metahook.port(), "metahook_hook_in_flight") < 1 && System.nanoTime() < bound) {
                Thread.sleep(20);
            }
            metahook.sigterm();
            metahook.waitForOutput("shutting down", Duration.ofSeconds(30));
            Thread.sleep(200);
            call.setSoLinger(true, 0);
            call.close();
            int exit = metahook.exitCode(Duration.ofSeconds(60));
            metahook.output().lines().filter(line -> line.contains("was not answered") || line.contains("were not answered"))
                    .forEach(line -> System.out.println("  " + line));
            return exit;
        }
    }

    private static List<Thread> busyLoops(int count) {
        List<Thread> loops = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Thread loop = new Thread(() -> {
                long spin = 0;
                while (!Thread.currentThread().isInterrupted()) {
                    spin++;
                }
                if (spin == 42) {
                    System.out.print("");
                }
            }, "busy-loop-" + i);
            loop.setDaemon(true);
            loop.start();
            loops.add(loop);
        }
        return loops;
    }
}
