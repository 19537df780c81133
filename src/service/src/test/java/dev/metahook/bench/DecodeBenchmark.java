package dev.metahook.bench;

import dev.metahook.internal.wire.CanonicalJson;
import dev.metahook.internal.wire.CompositeRequest;
import dev.metahook.internal.wire.Json;
import java.io.IOException;
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
 * Decoding alone: a WebApp sync with 1 to 1,000 more observed children read into a request (the
 * envelope parsed, every child scanned and its identity checked, none parsed). What the identity
 * check of every observed child costs shows here, without the controller and the encoder around it.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class DecodeBenchmark {
    @Param({"1", "100", "1000"})
    public int children;

    private byte[] request;

    @Setup
    public void setUp() throws IOException {
        request = CanonicalJson.bytes(Workloads.withLeftovers(Json.parse(Workloads.all().get("webapp-sync")), children));
    }

    @Benchmark
    public CompositeRequest decode() {
        return CompositeRequest.read(request);
    }
}
