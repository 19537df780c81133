package dev.metahook.bench;

import dev.metahook.api.Controllers;
import dev.metahook.controllers.webapp.WebApp;
import dev.metahook.controllers.webapp.WebAppController;
import dev.metahook.internal.engine.HookAnswer;
import dev.metahook.internal.engine.HookEngine;
import dev.metahook.internal.wire.CanonicalJson;
import dev.metahook.internal.wire.Json;
import java.io.IOException;
import java.time.Clock;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The engine path of one WebApp sync (decode, controller, guards, encode) with 1 to 1,000 more
 * observed children, without HTTP. Run with {@code -prof gc} for allocation per call.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class EngineBenchmark {
    @Param({"1", "10", "100", "1000"})
    public int children;

    private HookEngine engine;
    private byte[] request;

    @Setup
    public void setUp() throws IOException {
        engine = new HookEngine(Controllers.builder().composite("webapp", WebApp.class, new WebAppController()).build(),
                Clock.systemUTC());
        request = CanonicalJson.bytes(Workloads.withLeftovers(Json.parse(Workloads.all().get("webapp-sync")), children));
        HookAnswer answer = engine.handle("webapp", "sync", request);
        if (answer.status() != 200) {
            throw new IllegalStateException("the benchmark request is not answered with 200: " + answer.status());
        }
    }

    @Benchmark
    public HookAnswer sync() {
        return engine.handle("webapp", "sync", request);
    }
}
