package dev.metahook.server;

import dev.metahook.engine.HookAnswer;
import dev.metahook.engine.HookEngine;
import dev.metahook.engine.Problem;
import io.javalin.Javalin;
import io.javalin.compression.CompressionStrategy;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.ServerConnector;

/**
 * The hook service: {@code POST /<controller>/<hook>} for every registered controller, plus
 * {@code GET /healthz} and {@code /readyz}. Every answer is either the engine's or a problem+json
 * naming what was wrong with the call itself (size, method, path).
 */
public final class HookServer implements AutoCloseable {
    private static final String HOOK_PATH = "/{controller}/{hook}";
    private static final List<HandlerType> OTHER_METHODS =
            List.of(HandlerType.GET, HandlerType.PUT, HandlerType.PATCH, HandlerType.DELETE, HandlerType.HEAD);

    private final Javalin app;
    private final AtomicBoolean ready = new AtomicBoolean(false);

    private HookServer(Javalin app) {
        this.app = app;
    }

    /** Starts listening; returns once the server accepts connections. */
    public static HookServer start(ServerConfig config, HookEngine engine) {
        HookServer[] self = new HookServer[1];
        Javalin app = Javalin.create(javalin -> {
            javalin.startup.showJavalinBanner = false;
            javalin.startup.showOldJavalinVersionWarning = false;
            javalin.http.compressionStrategy = CompressionStrategy.NONE;
            javalin.http.maxRequestSize = config.maxBodySize();
            javalin.jetty.modifyHttpConfiguration(http -> http.setSendServerVersion(false));
            javalin.jetty.addConnector((server, http) -> {
                ServerConnector connector = new ServerConnector(server, new HttpConnectionFactory(http));
                connector.setHost(config.host());
                connector.setPort(config.port());
                connector.setIdleTimeout(config.idleTimeout().toMillis());
                return connector;
            });
            javalin.routes.get("/healthz", ctx -> ctx.contentType("text/plain").result("ok\n"));
            javalin.routes.get("/readyz", ctx -> readiness(ctx, self[0]));
            javalin.routes.post(HOOK_PATH, ctx -> hook(ctx, engine, config.maxBodySize()));
            for (HandlerType method : OTHER_METHODS) {
                javalin.routes.addHttpHandler(method, HOOK_PATH, HookServer::methodNotAllowed);
            }
            javalin.routes.error(404, HookServer::notFound);
        });
        self[0] = new HookServer(app);
        app.start();
        self[0].ready.set(true);
        return self[0];
    }

    public int port() {
        return app.port();
    }

    /** Whether {@code /readyz} answers 200; false while the server shuts down. */
    public void setReady(boolean ready) {
        this.ready.set(ready);
    }

    @Override
    public void close() {
        ready.set(false);
        app.stop();
    }

    private static void hook(Context ctx, HookEngine engine, long limit) throws IOException {
        long declared = ctx.req().getContentLengthLong();
        byte[] body = BodyReader.read(ctx.req().getInputStream(), declared, limit);
        if (body == null) {
            problem(ctx, Problem.of("body-too-large", "Request body too large", 413,
                    "the request body is larger than the limit of " + limit + " bytes (MAX_BODY_SIZE)"));
            ctx.header("Connection", "close");
            return;
        }
        HookAnswer answer = engine.handle(ctx.pathParam("controller"), ctx.pathParam("hook"), body);
        answer.headers().forEach(ctx::header);
        if (answer.status() == 200) {
            String etag = ETags.of(answer.body());
            ctx.header("ETag", etag);
            if (etag.equals(ctx.header("If-None-Match"))) {
                ctx.status(304);
                return;
            }
        }
        ctx.status(answer.status()).contentType(answer.contentType()).result(answer.body());
    }

    private static void readiness(Context ctx, HookServer server) {
        boolean isReady = server != null && server.ready.get();
        ctx.status(isReady ? 200 : 503).contentType("text/plain").result(isReady ? "ready\n" : "not ready\n");
    }

    private static void methodNotAllowed(Context ctx) {
        ctx.header("Allow", "POST");
        problem(ctx, Problem.of("method-not-allowed", "Method not allowed", 405,
                ctx.method() + " is not a hook call; Metacontroller calls hooks with POST"));
    }

    private static void notFound(Context ctx) {
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
