package dev.metahook.testing;

import dev.metahook.api.Controllers;
import dev.metahook.engine.HookEngine;
import dev.metahook.server.HookServer;
import dev.metahook.server.ServerConfig;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;

/** A real hook server on a free loopback port, with a fixed clock so answers are exact. */
public final class TestServer implements AutoCloseable {
    public static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-29T16:04:05Z"), ZoneOffset.UTC);

    private final HookServer server;

    private TestServer(HookServer server) {
        this.server = server;
    }

    public static TestServer start(Controllers controllers) {
        return start(controllers, ServerConfig.defaults());
    }

    public static TestServer start(Controllers controllers, ServerConfig config) {
        return new TestServer(HookServer.start(config.withHost("127.0.0.1").withPort(0), new HookEngine(controllers, CLOCK)));
    }

    /** The Widget controller under {@code /widget}. */
    public static Controllers widgets() {
        return Controllers.builder().composite("widget", Widget.class, new WidgetController()).build();
    }

    public int port() {
        return server.port();
    }

    /** The management port, or -1 when the server has none. */
    public int managementPort() {
        return server.managementPort();
    }

    public String url(String path) {
        return "http://127.0.0.1:" + port() + path;
    }

    @Override
    public void close() {
        server.close();
    }
}
