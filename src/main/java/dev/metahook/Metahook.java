package dev.metahook;

import dev.metahook.api.Controllers;
import dev.metahook.engine.HookEngine;
import dev.metahook.manifests.ManifestOptions;
import dev.metahook.manifests.Manifests;
import dev.metahook.server.HookServer;
import dev.metahook.server.ServerConfig;
import dev.metahook.server.WarmUp;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Clock;
import java.util.SortedMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves controllers the way metahook's own service does: configuration from the environment
 * (port, TLS, auth, limits: docs/configuration.md), {@code /healthz}, {@code /readyz},
 * {@code /metrics} (a service's own meters go on {@link HookServer#meterRegistry()}), one log line
 * per call, and a graceful shutdown on SIGTERM. Logging is the service's too ({@code LOG_LEVEL},
 * {@code LOG_FORMAT=json}: {@link LogConfiguration}, which Logback applies unless the application
 * brings a configuration of its own), and a line a controller logs during a call carries the call's
 * controller, hook, parent and generation in the MDC. A service of one's own is one line:
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
     * Starts serving with the configuration from the environment; returns once ready.
     *
     * @throws IllegalArgumentException when the environment's configuration is invalid, naming the variable
     */
    public static HookServer serve(Controllers controllers) {
        return serve(controllers, WarmUp.none());
    }

    /**
     * Starts serving with the configuration from the environment; returns once these warm-up calls
     * are made (see {@link WarmUp}) and the server is ready.
     *
     * @throws IllegalArgumentException when the environment's configuration is invalid, naming the variable
     */
    public static HookServer serve(Controllers controllers, WarmUp warmUp) {
        return serve(controllers, ServerConfig.fromEnvironment(System.getenv()), Clock.systemUTC(), warmUp);
    }

    /** Starts serving with this configuration and clock; the process stops it gracefully on SIGTERM. */
    public static HookServer serve(Controllers controllers, ServerConfig config, Clock clock) {
        return serve(controllers, config, clock, WarmUp.none());
    }

    /**
     * Writes the kustomize directory that runs these controllers on a cluster (their
     * CompositeControllers or DecoratorControllers, the CRDs of their parent types, the hook
     * service's Deployment, Service, NetworkPolicy, PodDisruptionBudget and autoscaler for
     * {@code options}' image), generated from the registration; returns the files written, by path.
     * A project calls it from a main class of its own (docs/deploy.md):
     *
     * <pre>{@code
     * Metahook.manifests(GreetingService.controllers(), ManifestOptions.service("greeting", "registry.example.com/greeting:1.0"),
     *         Path.of("deploy"));
     * }</pre>
     */
    public static SortedMap<String, String> manifests(Controllers controllers, ManifestOptions options, Path directory) {
        return Manifests.write(controllers, options, directory);
    }

    /** Starts serving with this configuration, clock and warm-up; the process stops it gracefully on SIGTERM. */
    public static HookServer serve(Controllers controllers, ServerConfig config, Clock clock, WarmUp warmUp) {
        HookServer server = HookServer.start(config, new HookEngine(controllers, clock), warmUp);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            LOG.info("shutting down: not ready any more, letting calls in flight finish");
            server.shutdown();
            LOG.info("stopped");
        }, "metahook-shutdown"));
        LOG.info("metahook serving {} on {}:{} (ready {} ms after the JVM started)", controllers.names(), config.host(),
                server.port(), ManagementFactory.getRuntimeMXBean().getUptime());
        return server;
    }
}
