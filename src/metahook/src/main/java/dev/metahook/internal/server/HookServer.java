package dev.metahook.internal.server;

import dev.metahook.internal.engine.HookEngine;
import dev.metahook.internal.engine.Problem;
import io.javalin.Javalin;
import io.javalin.compression.CompressionStrategy;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The hook service's lifecycle: its listeners (the hook port, plain or TLS, and the management port),
 * its routes ({@code POST /<controller>/<hook>} for every registered controller, served by {@link
 * HookHandler}, plus {@code GET /healthz}, {@code /readyz} and {@code /metrics}), the warm-up before it
 * reports ready, and the drain that stops it.
 */
public final class HookServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(HookServer.class);
    private static final String HOOK_PATH = "/{controller}/{hook}";
    private static final List<HandlerType> OTHER_METHODS =
            List.of(HandlerType.GET, HandlerType.PUT, HandlerType.PATCH, HandlerType.DELETE, HandlerType.HEAD);

    private final ServerConfig config;
    private final Javalin app;
    private final HookMetrics metrics;
    private final Tracing tracing;
    private final Drain drain;
    private final AtomicBoolean ready;
    private final StartPhases phases;
    private final HeaderDeadline headerDeadline;
    private final ManagementServer management;
    private final TlsConnector tls;
    private Boolean drained;

    private HookServer(Options options, Javalin app, Routes routes, StartPhases phases, ManagementServer management) {
        this.config = options.config();
        this.tracing = options.tracing();
        this.app = app;
        this.metrics = routes.metrics;
        this.drain = routes.drain;
        this.ready = routes.ready;
        this.tls = routes.tls.get();
        this.phases = phases;
        this.management = management;
        this.headerDeadline = HeaderDeadline.watch(app.jettyServer().server());
    }

    /**
     * How a server starts: its configuration, the warm-up calls it makes before it reports ready (none
     * unless given), where the span of every hook call goes ({@link Tracing#OFF} unless given; the server
     * closes, so flushes, it when it stops), and the memory budget of the calls in flight (sized from the
     * heap unless a test gives a small one to reach the overload), and a registry of the service's own that
     * gets every meter (none unless given).
     */
    public record Options(ServerConfig config, WarmUp warmUp, Tracing tracing, MemoryBudget budget, MeterRegistry meters) {
        public static Options of(ServerConfig config) {
            return new Options(config, WarmUp.none(), Tracing.OFF, MemoryBudget.ofHeap(), null);
        }

        public Options warmUp(WarmUp calls) {
            return new Options(config, calls, tracing, budget, meters);
        }

        public Options tracing(Tracing spans) {
            return new Options(config, warmUp, spans, budget, meters);
        }

        /** A registry of the service's own that gets every meter, added before the first one is registered. */
        public Options meters(MeterRegistry registry) {
            return new Options(config, warmUp, tracing, budget, registry);
        }

        Options budget(MemoryBudget calls) {
            return new Options(config, warmUp, tracing, calls, meters);
        }
    }

    /** Starts listening; returns once the server accepts connections, has made the warm-up calls, and reports ready. */
    public static HookServer start(HookEngine engine, Options options) {
        StartPhases phases = new StartPhases();
        Routes routes = new Routes(options, engine);
        phases.done("metrics");
        JettyPadding.configure();
        Javalin app = Javalin.create(routes::configure);
        app.start();
        ManagementServer management = options.config().managementPort() >= 0
                ? ManagementServer.start(options.config().host(), options.config().managementPort(), routes::health)
                : null;
        HookServer server = new HookServer(options, app, routes, phases, management);
        phases.done("HTTP listener");
        routes.warmUp.finish(app.jettyServer().server());
        phases.done("warm-up");
        routes.ready.set(true);
        return server;
    }

    public int port() {
        return app.port();
    }

    /** How long each phase of this server's start took, for the start log line. */
    public String startPhases() {
        return phases.toString();
    }

    /**
     * The Micrometer registry {@code /metrics} serves: a meter a service registers here (a counter of
     * its own, a gauge over a cache) is scraped with metahook's own. Names are the service's; labels
     * should come from bounded sets, as metahook's do.
     */
    public MeterRegistry meterRegistry() {
        return metrics.registry();
    }

    /** The port of the plain-HTTP management listener ({@code MANAGEMENT_PORT}), or -1 when there is none. */
    public int managementPort() {
        return management == null ? -1 : management.port();
    }

    /** Whether the drain has begun answering with {@code Connection: close} (the listener is closed by then). */
    boolean draining() {
        return drain.closing();
    }

    /** The hook listener. */
    ServerConnector connector() {
        return (ServerConnector) app.jettyServer().server().getConnectors()[0];
    }

    /** The keep-alive idle timeout the listener really has (Metacontroller's client keeps idle connections 90 s). */
    Duration idleTimeout() {
        return Duration.ofMillis(connector().getIdleTimeout());
    }

    /**
     * Stops gracefully ({@link Drain}): readiness turns false and the listener stops accepting at
     * once; every request that comes on an open connection is answered with {@code Connection:
     * close}, quiet connections are closed, and calls in flight get up to the shutdown timeout to be
     * answered; then the server stops. True when every call was answered. Stops once: a later call
     * (from another thread, too) waits for that and returns the same.
     */
    public synchronized boolean shutdown() {
        if (drained == null) {
            ready.set(false);
            drained = drain.drain(app.jettyServer().server(), config.shutdownTimeout());
            headerDeadline.close();
            if (tls != null) {
                tls.close();
            }
            app.stop();
            if (management != null) {
                management.close();
            }
            tracing.close();
        }
        return drained;
    }

    @Override
    public void close() {
        shutdown();
    }

    /** Looks at the TLS files now instead of at the next periodic check; true when a new certificate is served from now on. */
    boolean reloadTls() {
        return tls != null && tls.reloadIfChanged();
    }

    /** What the server is made of before it listens: the hook handler, the health routes and the hook listener they are served on. */
    private static final class Routes {
        private final ServerConfig config;
        private final HookMetrics metrics;
        private final Drain drain;
        private final WarmUp.Run warmUp;
        private final HookHandler handler;
        private final AtomicBoolean ready = new AtomicBoolean(false);
        /** The TLS listener, made when Jetty asks for the hook listener; none for plain HTTP. */
        private final AtomicReference<TlsConnector> tls = new AtomicReference<>();

        Routes(Options options, HookEngine engine) {
            this.config = options.config();
            this.metrics = new HookMetrics(engine.controllers(), options.meters());
            this.drain = new Drain(config.shutdownIdle());
            this.warmUp = options.warmUp().start(engine);
            this.handler = new HookHandler(engine, metrics, new CallSpans(options.tracing(), engine.controllers()),
                    new Authenticator(config.auth()), new BodyIntake(options.budget(), config.maxBodySize()), drain, config.maxBodySize());
        }

        void configure(JavalinConfig javalin) {
            javalin.startup.showJavalinBanner = false;
            javalin.startup.showOldJavalinVersionWarning = false;
            javalin.http.compressionStrategy = CompressionStrategy.NONE;
            javalin.http.maxRequestSize = config.maxBodySize();
            javalin.jetty.modifyHttpConfiguration(http -> http.setSendServerVersion(false));
            javalin.jetty.modifyHttpConfiguration(BodyIntake::limitReads);
            javalin.jetty.modifyServer(drain::install);
            javalin.jetty.modifyServer(server -> metrics.threads(server.getThreadPool()));
            javalin.jetty.addConnector(this::connector);
            if (warmUp.needsConnector()) {
                javalin.jetty.addConnector(warmUp::connector);
            }
            health(javalin);
            javalin.jetty.modifyServer(server -> server.setErrorHandler(new ProblemErrorHandler()));
            javalin.jetty.modifyServletContextHandler(context -> context.setErrorHandler(new ProblemErrorHandler()));
            javalin.routes.post(HOOK_PATH, handler::hook);
            for (HandlerType method : OTHER_METHODS) {
                javalin.routes.addHttpHandler(method, HOOK_PATH, HookServer::methodNotAllowed);
            }
            javalin.routes.error(404, HookServer::notFound);
            javalin.routes.exception(Exception.class, (e, ctx) -> {
                LOG.warn("{} {} failed: {}", ctx.method(), ctx.path(), e.toString());
                problem(ctx, Problem.of("server-error", "Server error", 500, "the server failed to answer: " + e.getClass().getSimpleName()));
            });
        }

        /** {@code /healthz}, {@code /readyz}, {@code /metrics}: on the hook port, and on the management port when there is one. */
        void health(JavalinConfig javalin) {
            javalin.routes.get("/healthz", ctx -> ctx.contentType("text/plain").result("ok\n"));
            javalin.routes.get("/readyz", this::readiness);
            javalin.routes.get("/metrics", ctx -> ctx.contentType("text/plain; version=0.0.4; charset=utf-8").result(metrics.scrape()));
        }

        private void readiness(Context ctx) {
            boolean isReady = ready.get();
            ctx.status(isReady ? 200 : 503).contentType("text/plain").result(isReady ? "ready\n" : "not ready\n");
        }

        /** The hook listener; it accepts in its selector (no acceptor thread), so the drain can take what the kernel queued before it closes. */
        private ServerConnector connector(Server server, HttpConfiguration http) {
            if (config.tls().enabled()) {
                tls.set(TlsConnector.create(server, http, config.tls(), metrics.registry()));
            }
            ServerConnector connector = tls.get() != null ? tls.get().connector() : new ServerConnector(server, 0, -1, new HttpConnectionFactory(http));
            connector.setHost(config.host());
            connector.setPort(config.port());
            connector.setIdleTimeout(config.idleTimeout().toMillis());
            connector.setAcceptQueueSize(config.acceptQueueSize());
            connector.setName("hook");
            metrics.connections(connector);
            return connector;
        }
    }

    private static void methodNotAllowed(Context ctx) {
        ctx.header("Allow", "POST");
        problem(ctx, Problem.of("method-not-allowed", "Method not allowed", 405,
                ctx.req().getMethod() + " is not a hook call; Metacontroller calls hooks with POST"));
    }

    private static void notFound(Context ctx) {
        if (!"POST".equals(ctx.req().getMethod()) && ctx.path().matches("/[^/]+/[^/]+")) {
            methodNotAllowed(ctx);
            return;
        }
        String written = ctx.res().getContentType();
        if (written == null || !written.startsWith(Problem.MEDIA_TYPE)) {
            problem(ctx, Problem.of("not-found", "Not found", 404,
                    "no route " + ctx.method() + " " + ctx.path() + "; hooks are POST /<controller>/<sync|finalize|customize>"));
        }
    }

    private static void problem(Context ctx, Problem problem) {
        ctx.status(problem.status()).contentType(Problem.MEDIA_TYPE).result(problem.toBytes());
    }
}
