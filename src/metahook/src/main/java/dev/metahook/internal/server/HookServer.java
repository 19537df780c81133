package dev.metahook.internal.server;

import dev.metahook.internal.engine.HookAnswer;
import dev.metahook.internal.engine.HookEngine;
import dev.metahook.internal.engine.Problem;
import io.javalin.Javalin;
import io.micrometer.core.instrument.MeterRegistry;
import io.javalin.compression.CompressionStrategy;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jetty.ee10.servlet.ServletContextRequest;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The hook service: {@code POST /<controller>/<hook>} for every registered controller, plus
 * {@code GET /healthz}, {@code /readyz} and {@code /metrics}. Every answer is either the engine's or
 * a problem+json naming what was wrong with the call itself (credentials, size, method, path). Every
 * call is logged, counted and, when tracing is on, a span ({@link CallSpans}).
 */
public final class HookServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(HookServer.class);
    private static final String HOOK_PATH = "/{controller}/{hook}";
    /** How long a client may pause reading an answer: generous (a 12 MB answer to a client that stops for 7 s arrives whole), and apart from the request body's 5 s. */
    static final Duration WRITE_IDLE_TIMEOUT = Duration.ofSeconds(30);
    private static final List<HandlerType> OTHER_METHODS =
            List.of(HandlerType.GET, HandlerType.PUT, HandlerType.PATCH, HandlerType.DELETE, HandlerType.HEAD);

    private final ServerConfig config;
    private final HookEngine engine;
    private final HookMetrics metrics;
    private final Tracing tracing;
    private final CallSpans spans;
    private final Authenticator authenticator;
    private final BodyIntake intake;
    private final Drain drain;
    private final AtomicBoolean ready = new AtomicBoolean(false);
    private final StartPhases phases = new StartPhases();
    private final WarmUp.Run warmUp;
    private Javalin app;
    private HeaderDeadline headerDeadline;
    private Boolean drained;
    private ManagementServer management;
    private TlsConnector tls;

    private HookServer(ServerConfig config, HookEngine engine, MemoryBudget budget, WarmUp warmUp, Tracing tracing) {
        this.config = config;
        this.tracing = tracing;
        this.spans = new CallSpans(tracing, engine.controllers());
        this.engine = engine;
        this.warmUp = warmUp.start(engine);
        this.drain = new Drain(config.shutdownIdle());
        this.metrics = new HookMetrics(engine.controllers().names());
        this.authenticator = new Authenticator(config.auth());
        this.intake = new BodyIntake(budget, config.maxBodySize());
    }

    /** Starts listening; returns once the server accepts connections and reports ready. */
    public static HookServer start(ServerConfig config, HookEngine engine) {
        return start(config, engine, WarmUp.none());
    }

    /** Starts listening; returns once the server accepts connections, has made the warm-up calls, and reports ready. */
    public static HookServer start(ServerConfig config, HookEngine engine, WarmUp warmUp) {
        return start(config, engine, warmUp, Tracing.OFF);
    }

    /**
     * Starts listening with a span for every hook call going to {@code tracing}, which the server closes
     * (flushes) when it stops; returns once the server is ready.
     */
    public static HookServer start(ServerConfig config, HookEngine engine, WarmUp warmUp, Tracing tracing) {
        return start(config, engine, MemoryBudget.ofHeap(), warmUp, tracing);
    }

    /** Starts with this memory budget for the calls in flight (a test makes it small to reach the overload). */
    static HookServer start(ServerConfig config, HookEngine engine, MemoryBudget budget) {
        return start(config, engine, budget, WarmUp.none(), Tracing.OFF);
    }

    private static HookServer start(ServerConfig config, HookEngine engine, MemoryBudget budget, WarmUp warmUp, Tracing tracing) {
        HookServer server = new HookServer(config, engine, budget, warmUp, tracing);
        server.phases.done("metrics");
        JettyPadding.configure();
        server.app = Javalin.create(server::configure);
        server.app.start();
        server.headerDeadline = HeaderDeadline.watch(server.app.jettyServer().server());
        if (config.managementPort() >= 0) {
            server.management = ManagementServer.start(config.host(), config.managementPort(), server::healthRoutes);
        }
        server.phases.done("HTTP listener");
        server.warmUp.finish(server.app.jettyServer().server());
        server.phases.done("warm-up");
        server.ready.set(true);
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
        return Duration.ofMillis(((ServerConnector) app.jettyServer().server().getConnectors()[0]).getIdleTimeout());
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

    private void configure(JavalinConfig javalin) {
        javalin.startup.showJavalinBanner = false;
        javalin.startup.showOldJavalinVersionWarning = false;
        javalin.http.compressionStrategy = CompressionStrategy.NONE;
        javalin.http.maxRequestSize = config.maxBodySize();
        javalin.jetty.modifyHttpConfiguration(http -> http.setSendServerVersion(false));
        javalin.jetty.modifyHttpConfiguration(BodyIntake::limitReads);
        javalin.jetty.modifyServer(drain::install);
        javalin.jetty.addConnector(this::connector);
        if (warmUp.needsConnector()) {
            javalin.jetty.addConnector(warmUp::connector);
        }
        healthRoutes(javalin);
        javalin.jetty.modifyServer(server -> server.setErrorHandler(new ProblemErrorHandler()));
        javalin.jetty.modifyServletContextHandler(context -> context.setErrorHandler(new ProblemErrorHandler()));
        javalin.routes.post(HOOK_PATH, this::hook);
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
    private void healthRoutes(JavalinConfig javalin) {
        javalin.routes.get("/healthz", ctx -> ctx.contentType("text/plain").result("ok\n"));
        javalin.routes.get("/readyz", this::readiness);
        javalin.routes.get("/metrics", ctx -> ctx.contentType("text/plain; version=0.0.4; charset=utf-8").result(metrics.scrape()));
    }

    /** The hook listener; it accepts in its selector (no acceptor thread), so the drain can take what the kernel queued before it closes. */
    private ServerConnector connector(Server server, HttpConfiguration http) {
        if (config.tls().enabled()) {
            tls = TlsConnector.create(server, http, config.tls());
        }
        ServerConnector connector = tls != null ? tls.connector() : new ServerConnector(server, 0, -1, new HttpConnectionFactory(http));
        connector.setHost(config.host());
        connector.setPort(config.port());
        connector.setIdleTimeout(config.idleTimeout().toMillis());
        connector.setAcceptQueueSize(config.acceptQueueSize());
        return connector;
    }

    /** A hook call, under its span (none for a warm-up call, which is neither logged nor counted either). */
    private void hook(Context ctx) throws IOException {
        Span span = WarmUp.isWarmUp(ctx.req()) ? Span.getInvalid() : spans.start(ctx);
        try (Scope current = CallSpans.current(span)) {
            call(ctx, span);
        }
    }

    private void call(Context ctx, Span span) throws IOException {
        long started = System.nanoTime();
        boolean counted = !WarmUp.isWarmUp(ctx.req());
        if (counted) {
            metrics.started();
            Drain.whenWritten(ctx.req(), metrics::done);
        }
        String controller = ctx.pathParam("controller");
        String hook = ctx.pathParam("hook");
        HookAnswer answer;
        int status;
        byte[] body = new byte[0];
        try {
            if (!authenticator.allows(ctx.header("Authorization"))) {
                controller = CallLog.bounded(controller);
                hook = CallLog.bounded(hook);
                answer = rejected(ctx);
            } else {
                BodyIntake.Intake taken = intake.take(ctx.req());
                taken.headers().forEach(ctx::header);
                body = taken.body();
                answer = taken.refusal() != null ? taken.refusal() : body == null ? tooLarge(ctx) : engine.handle(controller, hook, body, taken.budget());
            }
            if (drain.closing()) {
                ctx.header("Connection", "close");
            }
            status = head(ctx, answer);
        } catch (IOException | RuntimeException e) {
            Optional<Problem> clientFault = BodyFailure.of(e);
            if (clientFault.isEmpty()) {
                observe(controller, hook, HookAnswer.outcomeOnly(500, "io-error"), 500, Duration.ofNanos(System.nanoTime() - started), new byte[0], span);
                throw e;
            }
            ctx.header("Connection", "close");
            answer = HookAnswer.problem(clientFault.get());
            status = head(ctx, answer);
            counted = true;
            body = new byte[0];
        }
        boolean written = status == 304 || send(ctx, answer.body());
        if (counted) {
            observe(controller, hook, written ? answer : answer.writeFailed(), written ? status : 0,
                    Duration.ofNanos(System.nanoTime() - started), body == null ? new byte[0] : body, span);
        } else {
            rehearse(controller, hook, answer, status, Duration.ofNanos(System.nanoTime() - started));
        }
    }

    /** Logs, counts and ends the span of a call; none of them may ever change an answer that is already written. */
    private void observe(String controller, String hook, HookAnswer answer, int status, Duration took, byte[] body, Span span) {
        try {
            CallLog.log(controller, hook, answer, status, took, body);
        } catch (RuntimeException e) {
            LOG.warn("could not log a hook call: {}", e.toString());
        }
        try {
            metrics.finished(controller, hook, answer, status, took);
        } catch (RuntimeException e) {
            LOG.warn("could not record a hook call: {}", e.toString());
        }
        try {
            CallSpans.end(span, controller, hook, answer, status);
        } catch (RuntimeException e) {
            LOG.warn("could not end a hook call's span: {}", e.toString());
        }
    }

    /** Records a warm-up call apart ({@link HookMetrics#rehearsed}), so the first served call finds the metrics' code warm. */
    private void rehearse(String controller, String hook, HookAnswer answer, int status, Duration took) {
        try {
            metrics.rehearsed(controller, hook, answer, status, took);
        } catch (RuntimeException e) {
            LOG.debug("could not rehearse the metrics of a warm-up call: {}", e.toString());
        }
    }

    /** Sets the answer's status and headers, with an ETag on every 200 and a 304 when the caller already has it; returns the status. */
    private static int head(Context ctx, HookAnswer answer) {
        answer.headers().forEach(ctx::header);
        if (answer.status() == 200) {
            String etag = ETags.of(answer.body());
            ctx.header("ETag", etag);
            if (etag.equals(ctx.header("If-None-Match"))) {
                ctx.status(304);
                return 304;
            }
        }
        ctx.status(answer.status()).contentType(answer.contentType());
        return answer.status();
    }

    /**
     * Writes the body straight to the response with its length (a result handed to Javalin is copied
     * through a 32 KiB buffer of its own on every call, which was a fifth of what a WebApp sync
     * allocated), under {@link #WRITE_IDLE_TIMEOUT} rather than the request body's 5 s pause limit;
     * Jetty puts the connection's own limit back once the answer is done. False when the client was
     * gone or paused reading past the limit: the answer was not written whole, and the call is logged
     * and counted {@code write-failed}.
     */
    private static boolean send(Context ctx, byte[] body) {
        try {
            ctx.res().setContentLength(body.length);
            writeLimit(ctx);
            ctx.res().getOutputStream().write(body);
            return true;
        } catch (IOException gone) {
            LOG.debug("could not write an answer: {}", gone.toString());
            return false;
        }
    }

    private static void writeLimit(Context ctx) {
        ServletContextRequest request = ServletContextRequest.getServletContextRequest(ctx.req());
        if (request != null) {
            request.getConnectionMetaData().getConnection().getEndPoint().setIdleTimeout(WRITE_IDLE_TIMEOUT.toMillis());
        }
    }

    /**
     * A {@code 401}, answered without reading the body: a body that may still be on its way leaves the
     * connection unusable (Jetty closes it rather than read what an unauthenticated caller sends), so the
     * answer says {@code Connection: close} whenever the call has one, and the client knows not to reuse it.
     */
    private HookAnswer rejected(Context ctx) {
        ctx.header("WWW-Authenticate", authenticator.challenge());
        if (ctx.req().getContentLengthLong() != 0) {
            ctx.header("Connection", "close");
        }
        return HookAnswer.problem(Problem.of("unauthorized", "Unauthorized", 401,
                "hook calls need the credentials this service is configured with (Authorization header)"));
    }

    private HookAnswer tooLarge(Context ctx) {
        ctx.header("Connection", "close");
        return HookAnswer.problem(Problem.of("body-too-large", "Request body too large", 413,
                "the request body is larger than the limit of " + config.maxBodySize() + " bytes (MAX_BODY_SIZE)"));
    }

    private void readiness(Context ctx) {
        boolean isReady = ready.get();
        ctx.status(isReady ? 200 : 503).contentType("text/plain").result(isReady ? "ready\n" : "not ready\n");
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
