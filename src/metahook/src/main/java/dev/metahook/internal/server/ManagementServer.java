package dev.metahook.internal.server;

import dev.metahook.internal.engine.Problem;
import io.javalin.Javalin;
import io.javalin.config.JavalinConfig;
import java.util.function.Consumer;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The management port ({@code MANAGEMENT_PORT}): plain HTTP serving only {@code /healthz},
 * {@code /readyz} and {@code /metrics}, so kubelet probes and Prometheus reach them when the hook port
 * requires TLS and a client certificate. Its own few threads keep probes answered while the hook
 * port is busy, and the hook port's {@link HeaderDeadline} bounds a request's head. No hook is served here.
 */
final class ManagementServer implements AutoCloseable {
    private static final int THREADS = 6;

    private final Javalin app;
    private final HeaderDeadline headerDeadline;

    private ManagementServer(Javalin app) {
        this.app = app;
        this.headerDeadline = HeaderDeadline.watch(app.jettyServer().server());
    }

    /** Starts listening with the health and metrics routes {@code routes} adds. */
    static ManagementServer start(String host, int port, Consumer<JavalinConfig> routes) {
        Javalin app = Javalin.create(javalin -> {
            javalin.startup.showJavalinBanner = false;
            javalin.startup.showOldJavalinVersionWarning = false;
            javalin.jetty.threadPool = threadPool();
            javalin.jetty.addConnector((server, http) -> connector(server, http, host, port));
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

    /** One acceptor and one selector, whatever the node's core count: the few threads of the pool must cover them. */
    private static ServerConnector connector(Server server, HttpConfiguration http, String host, int port) {
        ServerConnector connector = new ServerConnector(server, 1, 1, new HttpConnectionFactory(http));
        connector.setHost(host);
        connector.setPort(port);
        return connector;
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
        headerDeadline.close();
        app.stop();
    }
}
