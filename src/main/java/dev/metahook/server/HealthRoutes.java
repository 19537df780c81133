package dev.metahook.server;

import io.javalin.config.JavalinConfig;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** {@code GET /healthz}, {@code /readyz} and {@code /metrics}: on the hook port, and on the management port when there is one. */
final class HealthRoutes {
    private HealthRoutes() {
    }

    static void add(JavalinConfig javalin, BooleanSupplier ready, Supplier<String> metrics) {
        javalin.routes.get("/healthz", ctx -> ctx.contentType("text/plain").result("ok\n"));
        javalin.routes.get("/readyz", ctx -> {
            boolean isReady = ready.getAsBoolean();
            ctx.status(isReady ? 200 : 503).contentType("text/plain").result(isReady ? "ready\n" : "not ready\n");
        });
        javalin.routes.get("/metrics", ctx -> ctx.contentType("text/plain; version=0.0.4; charset=utf-8").result(metrics.get()));
    }
}
