package dev.metahook;

import dev.metahook.api.Controllers;
import dev.metahook.internal.engine.HookEngine;
import dev.metahook.internal.server.HookServer;
import dev.metahook.internal.server.Termination;
import dev.metahook.internal.server.Tracing;
import io.micrometer.core.instrument.MeterRegistry;
import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves controllers the way metahook's own service does: configuration from the environment
 * (port, TLS, auth, limits: docs/configuration.md) or from {@link ServeOptions}, {@code /healthz},
 * {@code /readyz}, {@code /metrics} (a service's own meters go on {@link Server#meterRegistry()}), one
 * log line per call, and a graceful shutdown on SIGTERM. Logging is the service's too ({@code LOG_LEVEL},
 * {@code LOG_FORMAT=json}, which Logback applies unless the application brings a configuration of its
 * own), and a line a controller logs during a call carries the call's controller, hook, parent and
 * generation in the MDC. On SIGTERM (or SIGINT) the service drains and the process exits 0 when every request
 * that arrived was answered, 1 when one was not, as the built-in service does (docs/production.md#shutdown). With the {@code OTEL_*} variables set (and the OpenTelemetry SDK on the class path),
 * every call is a span, and a controller's own spans are its children
 * (docs/production.md#tracing). A service of one's own is one line:
 *
 * <pre>{@code
 * public static void main(String[] args) {
 *     Metahook.serve(Controllers.builder().composite("greeting", Greeting.class, new GreetingController()).build());
 * }
 * }</pre>
 */
public final class Metahook {
    private static final Logger LOG = LoggerFactory.getLogger(Metahook.class);

    private Metahook() {
    }

    /**
     * Starts serving with the options the environment gives; returns once ready.
     *
     * @throws IllegalArgumentException when the environment's configuration is invalid, naming the variable
     */
    public static Server serve(Controllers controllers) {
        return serve(controllers, ServeOptions.fromEnvironment().build());
    }

    /** Starts serving with these options; returns once the warm-up calls are made and the service is ready. The process stops it gracefully on SIGTERM. */
    public static Server serve(Controllers controllers, ServeOptions options) {
        long called = System.nanoTime();
        Tracing tracing = Tracing.fromEnvironment(System.getenv(), System.getProperties());
        HookEngine engine = new HookEngine(controllers, options.clock());
        long engineMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - called);
        HookServer server;
        try {
            server = HookServer.start(engine, serverOptions(options, tracing));
        } catch (RuntimeException e) {
            tracing.close();
            throw e;
        }
        Stop stop = new Stop(server);
        stop.unregister = Termination.onSignal(stop);
        Runtime.getRuntime().addShutdownHook(new Thread(stop::getAsBoolean, "metahook-shutdown"));
        long uptime = ManagementFactory.getRuntimeMXBean().getUptime();
        LOG.info("metahook serving {} on {}:{} (ready {} ms after the JVM started: before serve {} ms, engine {} ms, {})",
                controllers.names(), options.config().host(), server.port(), uptime,
                uptime - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - called), engineMillis, server.startPhases());
        return new Serving(server, stop);
    }

    private static HookServer.Options serverOptions(ServeOptions options, Tracing tracing) {
        HookServer.Options server = HookServer.Options.of(options.config()).warmUp(options.warmUp()).tracing(tracing);
        return options.meterRegistry() == null ? server : server.meters(options.meterRegistry());
    }

    /**
     * The drain, run once whoever asks first (the signal, a shutdown hook, the application), logged as it begins and ends;
     * true when every request that arrived was answered.
     */
    private static final class Stop implements BooleanSupplier {
        private final HookServer server;
        private Runnable unregister = () -> { };
        private Boolean drained;

        Stop(HookServer server) {
            this.server = server;
        }

        @Override
        public synchronized boolean getAsBoolean() {
            if (drained == null) {
                LOG.info("shutting down: not ready any more, letting calls in flight finish");
                drained = server.shutdown();
                unregister.run();
                if (drained) {
                    LOG.info("stopped: every request that arrived was answered");
                } else {
                    LOG.warn("stopped: requests that arrived were not answered (SHUTDOWN_TIMEOUT_SECONDS)");
                }
            }
            return drained;
        }
    }

    /** The running server as a user sees it. */
    private record Serving(HookServer server, Stop stop) implements Server {
        @Override
        public int port() {
            return server.port();
        }

        @Override
        public int managementPort() {
            return server.managementPort();
        }

        @Override
        public MeterRegistry meterRegistry() {
            return server.meterRegistry();
        }

        @Override
        public boolean shutdown() {
            return stop.getAsBoolean();
        }

        @Override
        public void close() {
            stop.getAsBoolean();
        }
    }
}
