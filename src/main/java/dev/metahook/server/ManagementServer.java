package dev.metahook.server;

import dev.metahook.engine.Problem;
import io.javalin.Javalin;
import io.javalin.config.JavalinConfig;
import java.util.function.Consumer;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The management port ({@code MANAGEMENT_PORT}): plain HTTP serving only {@code /healthz},
 * {@code /readyz} and {@code /metrics}, so kubelet probes and Prometheus reach them when the hook port
 * requires TLS and a client certificate. Its own few threads keep probes answered while the hook
 * port is busy. No hook is served here.
 */
final class ManagementServer implements AutoCloseable {
    private static final int THREADS = 6;

    private final Javalin app;

    private ManagementServer(Javalin app) {
        this.app = app;
    }

    /** Starts listening with the health and metrics routes {@code routes} adds. */
    static ManagementServer start(String host, int port, Consumer<JavalinConfig> routes) {
        Javalin app = Javalin.create(javalin -> {
            javalin.startup.showJavalinBanner = false;
            javalin.startup.showOldJavalinVersionWarning = false;
            javalin.jetty.host = host;
            javalin.jetty.port = port;
            javalin.jetty.threadPool = threadPool();
            javalin.jetty.modifyHttpConfiguration(http -> http.setSendServerVersion(false));
            javalin.jetty.modifyServer(server -> server.setErrorHandler(new ProblemErrorHandler()));
            javalin.jetty.modifyServletContextHandler(context -> context.setErrorHandler(new ProblemErrorHandler()));
            routes.accept(javalin);
            javalin.routes.error(404, ctx -> ctx.contentType(Problem.MEDIA_TYPE).result(Problem.of("not-found", "Not found", 404,
                    "the management port serves GET /healthz, /readyz and /metrics only; hooks are on the hook port").toBytes()));
        });
        app.start();
        return new ManagementServer(app);
    }

    private static QueuedThreadPool threadPool() {
        QueuedThreadPool pool = new QueuedThreadPool(THREADS, 2);
        pool.setName("metahook-management");
        return pool;
    }

    int port() {
        return app.port();
    }

    @Override
    public void close() {
        app.stop();
    }
}
