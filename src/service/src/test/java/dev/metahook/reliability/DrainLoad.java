package dev.metahook.reliability;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The drain under load, measured: {@link DrainRound} round after round, for each kind of client
 * ({@link KeepAliveClients.Kind}: kept alive, pipelining two requests at a time, a connection per request), on a
 * machine kept busy by busy loops in this JVM. Each round prints the requests written whole, answered, lost (no
 * whole answer, after SIGTERM and before it), the resets of the closing listener's queue (the kernel's, at the
 * one instant the listener closes, and how far apart the clients saw them), the answers the service logged that
 * no client received, and the exit code. Two last rounds force a loss (a client that resets its call during the
 * drain, a call still in flight at the drain's deadline): each must exit 1, and the lines that name the call are
 * printed.
 *
 * <p>Not a test (it takes many minutes, and its figures are the point): {@code src/bench/drain} builds the jar
 * and runs it; its arguments are {@code [rounds] [clients] [busy loops] [kinds]} (20, 64, 2 and
 * {@code KEPT_ALIVE,PIPELINING,CONNECTION_PER_REQUEST} unless given). Exits 1 when any request was lost or a
 * round's exit code was wrong.
 */
public final class DrainLoad {
    private DrainLoad() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        int clients = args.length > 1 ? Integer.parseInt(args[1]) : 64;
        int busy = args.length > 2 ? Integer.parseInt(args[2]) : 2;
        List<KeepAliveClients.Kind> kinds = args.length > 3
                ? Arrays.stream(args[3].split(",")).map(KeepAliveClients.Kind::valueOf).toList()
                : List.of(KeepAliveClients.Kind.values());
        List<Thread> loops = busyLoops(busy);
        byte[] body = Bodies.small();
        boolean clean = true;
        for (KeepAliveClients.Kind kind : kinds) {
            clean &= rounds(kind, rounds, clients, body);
        }
        clean &= forced("a client that resets its call during the drain", DrainRound.resetDuringTheDrain(body));
        clean &= forced("a call still in flight at the drain's deadline", DrainRound.inFlightAtTheDeadline(body));
        loops.forEach(Thread::interrupt);
        System.exit(clean ? 0 : 1);
    }

    /** The rounds of one kind of client, each printed, then their sums; true when none lost a request and every exit was 0. */
    private static boolean rounds(KeepAliveClients.Kind kind, int rounds, int clients, byte[] body) throws Exception {
        long written = 0;
        long answered = 0;
        long lost = 0;
        long resets = 0;
        long withLoss = 0;
        List<Integer> exits = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
            DrainRound.Outcome seen = DrainRound.run("drainload-" + kind + "-" + round, kind, clients, body);
            System.out.println(kind + " " + clients + " round " + round + ": " + seen + "; " + load());
            written += seen.load().written.get();
            answered += seen.load().answered.get();
            resets += seen.load().resetInTheClosingQueue.get();
            lost += seen.lost();
            withLoss += seen.lost() > 0 ? 1 : 0;
            exits.add(seen.exit());
        }
        System.out.printf("%s %d: %d rounds, %d requests written, %d answered, %d lost in %d rounds, %d reset in the closing queue, exit codes %s%n",
                kind, clients, rounds, written, answered, lost, withLoss, resets, exits);
        return lost == 0 && exits.stream().allMatch(code -> code == 0);
    }

    private static boolean forced(String what, DrainRound.ForcedLoss loss) {
        System.out.println(what + ": " + loss);
        return loss.exit() == 1 && loss.naming() == 1;
    }

    private static String load() throws IOException {
        return "load " + Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
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
