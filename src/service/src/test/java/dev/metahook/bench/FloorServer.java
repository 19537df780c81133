package dev.metahook.bench;

import io.javalin.Javalin;
import io.javalin.compression.CompressionStrategy;
import java.util.Arrays;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.ServerConnector;

/**
 * The benchmark's floor: the same HTTP stack, configured as metahook's server is, answering a
 * constant body of a given size without reading the request. What is left above it is the hook.
 * Arguments: port, body size in bytes.
 */
public final class FloorServer {
    private FloorServer() {
    }

    public static void main(String[] args) {
        int port = Integer.parseInt(args[0]);
        byte[] body = new byte[Integer.parseInt(args[1])];
        Arrays.fill(body, (byte) ' ');
        body[0] = '{';
        body[body.length - 1] = '}';
        Javalin.create(config -> {
            config.startup.showJavalinBanner = false;
            config.http.compressionStrategy = CompressionStrategy.NONE;
            config.jetty.modifyHttpConfiguration(http -> http.setSendServerVersion(false));
            config.jetty.addConnector((server, http) -> {
                ServerConnector connector = new ServerConnector(server, new HttpConnectionFactory(http));
                connector.setHost("127.0.0.1");
                connector.setPort(port);
                connector.setIdleTimeout(120_000);
                return connector;
            });
            config.routes.post("/{controller}/{hook}", ctx -> ctx.contentType("application/json").result(body));
            config.routes.get("/readyz", ctx -> ctx.result("ready\n"));
        }).start();
    }
}
