package dev.metahook.reliability;

import dev.metahook.api.Controllers;
import dev.metahook.controllers.webapp.WebApp;
import dev.metahook.controllers.webapp.WebAppController;
import dev.metahook.internal.engine.HookAnswer;
import dev.metahook.internal.engine.HookEngine;
import dev.metahook.internal.wire.CompositeRequest;
import dev.metahook.internal.wire.Json;
import dev.metahook.internal.wire.JsonCensus;
import dev.metahook.internal.wire.ReferenceCensus;
import dev.metahook.internal.wire.CallBudget;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.ref.Reference;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The heap one hook call needs, per shape of body: the figures behind the memory model in
 * docs/production.md. Run by {@code src/bench/footprint}; not a test.
 *
 * <p>How: each body is written to a file, and a fresh JVM (the shipped collector, {@code -XX:+UseSerialGC},
 * with {@code -XX:+ExitOnOutOfMemoryError}) loads the WebApp controller, makes the small sync three
 * times, reads the body and answers it through {@link HookEngine} as the service does. The smallest
 * {@code -Xmx} (to 2 MiB) in which it answers, found by bisection, less the smallest in which the small
 * sync alone is answered, is the call's need: every byte the call holds at its peak (the body, its
 * trees, the typed objects, the answer being encoded) plus what the collector needs to work in that
 * heap. Next to it: the census's estimate of one tree of the body, one tree's real retained heap
 * measured in this JVM (heap used after a full collection, with and without the tree, read from
 * {@code MemoryMXBean}), what the memory budget would charge the call with every observed object read
 * ({@code MemoryBudget.cost}), and what it charges up front, before any is read ({@code MemoryBudget.upFront}).
 */
public final class CallFootprint {
    private static final Path DIR = Path.of("target/footprint");
    private static final long MIB = 1024 * 1024;

    private CallFootprint() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("probe")) {
            System.exit(probe(Path.of(args[1])));
        }
        Files.createDirectories(DIR);
        Map<String, byte[]> shapes = new LinkedHashMap<>();
        shapes.put("small WebApp sync", Bodies.small());
        shapes.put("one 15 MiB string", ShapedBodies.oneString(15 * MIB));
        shapes.put("450,000 {} in spec.resources.claims", ShapedBodies.emptyObjects(450_000));
        shapes.put("48,000 spec.env entries", ShapedBodies.env(48_000));
        shapes.put("300,000 spec.env entries", ShapedBodies.env(300_000));
        shapes.put("1,000,000 integers in one array", ShapedBodies.longArray(1_000_000));
        shapes.put("81,509 ConfigMaps, invalid spec", ShapedBodies.invalidSpecWithConfigMaps(81_509));
        shapes.put("81,509 ConfigMaps, none read", ShapedBodies.unreadConfigMaps(81_509));
        shapes.put("2,000 objects 190 deep in parent.spec", ShapedBodies.deep(2_000, 190, false));
        shapes.put("2,000 objects 190 deep in a child", ShapedBodies.deep(2_000, 190, true));
        String only = System.getenv("SHAPES");
        long baseline = -1;
        Method cost = Class.forName("dev.metahook.internal.server.MemoryBudget").getDeclaredMethod("cost", JsonCensus.class);
        cost.setAccessible(true);
        Method upFront = Class.forName("dev.metahook.internal.server.MemoryBudget").getDeclaredMethod("upFront", CallBudget.Work.class);
        upFront.setAccessible(true);
        System.out.printf("%-40s %10s %10s %10s %10s %10s %10s %8s %8s %9s%n", "shape", "body", "tree est.", "tree real", "need", "cost",
                "up front", "need/b", "cost/b", "cost/need");
        int n = 0;
        for (Map.Entry<String, byte[]> shape : shapes.entrySet()) {
            n++;
            if (only != null && n > 1 && !only.contains(Integer.toString(n))) {
                continue;
            }
            byte[] body = shape.getValue();
            Path file = DIR.resolve("shape-" + n + ".json");
            Files.write(file, body);
            JsonCensus census = ReferenceCensus.of(body);
            long real = retained(body);
            long minimal = smallestHeap(file);
            if (baseline < 0) {
                baseline = minimal;
            }
            long need = minimal - baseline;
            long charged = (long) cost.invoke(null, census);
            long admitted = (long) upFront.invoke(null, work(body));
            System.out.printf("%-40s %10s %10s %10s %10s %10s %10s %8.1f %8.1f %9.2f%n", shape.getKey(), mib(body.length),
                    mib(census.treeBytes()), mib(real), mib(need), mib(charged), mib(admitted), (double) need / body.length,
                    (double) charged / body.length, (double) charged / need);
            System.out.printf("    census: %s%n", census);
        }
    }

    /** What the service admits of a call with this body before any observed object is read: its scanned work. */
    private static CallBudget.Work work(byte[] body) {
        List<CallBudget.Work> admitted = new ArrayList<>();
        try {
            CompositeRequest.read(body, new CallBudget.Unlimited() {
                @Override
                public void admit(Work work) {
                    admitted.add(work);
                }
            });
        } catch (RuntimeException e) {
            // A body the request decoder refuses after its work was admitted (too deep a tree) still shows what was admitted.
        }
        return admitted.get(0);
    }

    /** The smallest -Xmx (MiB, within 2) in which the call in {@code file} is answered; the status is printed. */
    private static long smallestHeap(Path file) throws Exception {
        long low = 8;
        long high = 64;
        while (!answered(file, high)) {
            low = high;
            high *= 2;
            if (high > 8192) {
                throw new IllegalStateException("not answered in 8 GiB: " + file);
            }
        }
        while (high - low > 2) {
            long middle = (low + high) / 2;
            if (answered(file, middle)) {
                high = middle;
            } else {
                low = middle;
            }
        }
        return high * MIB;
    }

    private static boolean answered(Path file, long heapMib) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx" + heapMib + "m", "-XX:+UseSerialGC", "-XX:+ExitOnOutOfMemoryError", "-XX:-UsePerfData", "-cp",
                System.getProperty("java.class.path"), CallFootprint.class.getName(), "probe", file.toString()));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(DIR.resolve("probe.log").toFile()).start();
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
            return false;
        }
        return process.exitValue() == 0;
    }

    /** In the probe JVM: 0 when the call was answered (any status but a 500), 1 on a 500; the JVM exits 3 on OutOfMemoryError. */
    private static int probe(Path file) throws IOException {
        HookEngine engine = new HookEngine(Controllers.builder().composite("webapp", WebApp.class, new WebAppController()).build(),
                Clock.systemUTC());
        byte[] small = Bodies.small();
        for (int i = 0; i < 3; i++) {
            engine.handle("webapp", "sync", small);
        }
        byte[] body = Files.readAllBytes(file);
        HookAnswer answer = engine.handle("webapp", "sync", body);
        System.out.println("status " + answer.status() + ", " + answer.body().length + " bytes");
        return answer.status() == 500 ? 1 : 0;
    }

    /** The heap one Jackson tree of the body keeps, measured after full collections. */
    private static long retained(byte[] body) throws IOException {
        long before = usedAfterGc();
        Object tree = Json.mapper().readTree(body);
        long after = usedAfterGc();
        Reference.reachabilityFence(tree);
        return after - before;
    }

    private static long usedAfterGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private static String mib(long bytes) {
        return String.format("%.2f MiB", bytes / (double) MIB);
    }
}
