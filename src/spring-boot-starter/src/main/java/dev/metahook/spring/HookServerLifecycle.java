package dev.metahook.spring;

import dev.metahook.Server;
import dev.metahook.api.Controllers;
import dev.metahook.internal.engine.HookEngine;
import dev.metahook.internal.server.HookServer;
import dev.metahook.internal.server.ServerConfig;
import dev.metahook.internal.server.ServiceLinkException;
import dev.metahook.internal.server.Tracing;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * metahook's own server, the one {@code Metahook.serve} runs, started and stopped by the application context: it
 * starts after Boot's web server (so Actuator answers first) and, at shutdown, drains before Boot's web server
 * shuts down, so that {@code /actuator/health} reports the drain while it runs. Boot's shutdown hook is the only
 * one: no second hook races it.
 */
final class HookServerLifecycle implements SmartLifecycle, Server {
    /**
     * Before Boot's graceful shutdown of its web server ({@code SmartLifecycle.DEFAULT_PHASE - 1024}) when stopping,
     * after its start ({@code DEFAULT_PHASE - 2048}) when starting.
     */
    static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 512;
    private static final Logger LOG = LoggerFactory.getLogger(HookServerLifecycle.class);
    private static final Pattern VARIABLE = Pattern.compile("\\b[A-Z][A-Z_]*[A-Z]\\b");

    private final Controllers controllers;
    private final ServerConfig config;
    private final Supplier<MeterRegistry> applicationRegistry;
    private final Supplier<Tracing> tracing;
    private volatile HookServer server;
    private volatile Boolean drained;
    private volatile boolean drainedAtExit;

    HookServerLifecycle(Controllers controllers, MetahookProperties properties, Supplier<MeterRegistry> applicationRegistry,
            Supplier<Tracing> tracing) {
        this.controllers = controllers;
        this.config = config(properties);
        this.applicationRegistry = applicationRegistry;
        this.tracing = tracing;
    }

    /**
     * The server's configuration, read by the plain service's own code from the variables the properties stand for.
     *
     * @throws IllegalArgumentException naming the {@code metahook.*} property (or the process's variable when no
     *                                  property sets it) when a setting is out of range
     */
    static ServerConfig config(MetahookProperties properties) {
        return config(properties, System.getenv());
    }

    /**
     * The configuration from the properties, and from {@code process}'s variables for the settings no property sets.
     *
     * @throws IllegalArgumentException naming each setting as it was given: the property, or the process's variable
     * @throws ServiceLinkException when a port the process's variables give is a Kubernetes service link
     */
    static ServerConfig config(MetahookProperties properties, Map<String, String> process) {
        Map<String, String> variables = properties.asEnvironment(process);
        try {
            return ServerConfig.fromEnvironment(variables);
        } catch (ServiceLinkException e) {
            // a port property holding a link fails Boot's binding first: this one is the process's variable
            throw e;
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(inPropertyNames(e.getMessage(), properties.asEnvironment().keySet()));
        }
    }

    /** A message naming these variables ({@code PORT}) by their properties' names ({@code metahook.port}) instead. */
    static String inPropertyNames(String message, Set<String> setByProperties) {
        Matcher variable = VARIABLE.matcher(message);
        StringBuilder named = new StringBuilder();
        while (variable.find()) {
            String name = setByProperties.contains(variable.group()) ? MetahookProperties.property(variable.group()) : variable.group();
            variable.appendReplacement(named, Matcher.quoteReplacement(name));
        }
        return variable.appendTail(named).toString();
    }

    @Override
    public synchronized void start() {
        HookServer.Options options = HookServer.Options.of(config).tracing(tracing.get());
        MeterRegistry registry = applicationRegistry.get();
        // added before the server makes its first meter, so the application's registry gets each one
        HookServer started = HookServer.start(new HookEngine(controllers, Clock.systemUTC()),
                registry == null ? options : options.meters(registry));
        server = started;
        LOG.info("metahook serving {} on {}:{}", controllers.names(), config.host(), started.port());
    }

    @Override
    public void stop() {
        shutdown();
    }

    @Override
    public boolean isRunning() {
        return server != null && drained == null;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }

    /** Whether hook calls are being taken: started, and not draining. */
    boolean ready() {
        return isRunning();
    }

    /** Whether every call the drain found in flight was answered; null before a shutdown. */
    Boolean drained() {
        return drained;
    }

    /** As {@link #drained()}, when the drain ran because the JVM is shutting down (a SIGTERM); null otherwise. */
    Boolean drainedAtExit() {
        return drainedAtExit ? drained : null;
    }

    @Override
    public int port() {
        return running().port();
    }

    @Override
    public int managementPort() {
        return running().managementPort();
    }

    @Override
    public MeterRegistry meterRegistry() {
        return running().meterRegistry();
    }

    @Override
    public synchronized boolean shutdown() {
        if (drained == null && server != null) {
            LOG.info("shutting down: not ready any more, letting calls in flight finish");
            drainedAtExit = jvmShuttingDown();
            drained = server.shutdown();
            if (drained) {
                LOG.info("stopped: every call in flight was answered");
            } else {
                LOG.warn("stopped: calls in flight were cut off by metahook.shutdown-timeout-seconds");
            }
        }
        return drained != null && drained;
    }

    @Override
    public void close() {
        shutdown();
    }

    /** Whether the JVM has begun its shutdown: it then refuses a new shutdown hook. */
    private static boolean jvmShuttingDown() {
        Thread probe = new Thread(() -> { }, "metahook-shutdown-probe");
        try {
            Runtime.getRuntime().addShutdownHook(probe);
        } catch (IllegalStateException e) {
            return true;
        }
        Runtime.getRuntime().removeShutdownHook(probe);
        return false;
    }

    private HookServer running() {
        HookServer current = server;
        if (current == null) {
            throw new IllegalStateException("metahook's server has not started yet");
        }
        return current;
    }
}
