package dev.metahook.cli;

import dev.metahook.engine.Controllers;
import dev.metahook.engine.HookEngine;
import dev.metahook.server.HookServer;
import dev.metahook.server.ServerConfig;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** {@code java -jar metahook.jar [serve]}. */
public final class Main {
    private static final Logger LOG = LoggerFactory.getLogger(Main.class);

    private Main() {
    }

    public static void main(String[] args) {
        String command = args.length == 0 ? "serve" : args[0];
        if (!command.equals("serve")) {
            System.err.println("usage: java -jar metahook.jar [serve]\nunknown command: " + command);
            System.exit(2);
        }
        long started = System.nanoTime();
        ServerConfig config;
        byte[] databaseKey;
        try {
            config = ServerConfig.fromEnvironment(System.getenv());
            databaseKey = DatabaseKey.fromEnvironment(System.getenv());
        } catch (IllegalArgumentException e) {
            System.err.println("metahook: " + e.getMessage());
            System.exit(2);
            return;
        }
        serve(config, databaseKey, started);
    }

    static void serve(ServerConfig config, byte[] databaseKey, long started) {
        Clock clock = Clock.systemUTC();
        Controllers controllers = BuiltInControllers.all(clock, databaseKey);
        HookServer server = HookServer.start(config, new HookEngine(controllers, clock));
        Runtime.getRuntime().addShutdownHook(new Thread(server::close, "metahook-shutdown"));
        LOG.info("metahook serving {} on {}:{} (ready in {} ms)", controllers.names(), config.host(), server.port(),
                (System.nanoTime() - started) / 1_000_000);
    }
}
