package dev.metahook.testing;

import static io.restassured.RestAssured.given;

import dev.metahook.api.Controllers;
import dev.metahook.internal.engine.HookEngine;
import dev.metahook.internal.server.HookServer;
import dev.metahook.internal.server.ServerConfig;
import io.restassured.response.ValidatableResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.function.Supplier;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real hook server on a free loopback port, with a fixed clock so answers are exact. As a JUnit
 * extension ({@code @RegisterExtension static final TestServer server = TestServer.of(...)}) it
 * starts before the class's tests and stops after them (on an instance field: around each test);
 * {@link #start} starts one for a try-with-resources block.
 */
public final class TestServer implements AutoCloseable, BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback {
    public static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-29T16:04:05Z"), ZoneOffset.UTC);

    private final Supplier<Controllers> controllers;
    private final ServerConfig config;
    private HookServer server;
    private boolean perTest;

    private TestServer(Supplier<Controllers> controllers, ServerConfig config) {
        this.controllers = controllers;
        this.config = config;
    }

    /** A server for a test class's extension field: started by JUnit, not here. */
    public static TestServer of(Supplier<Controllers> controllers) {
        return of(controllers, ServerConfig.defaults());
    }

    public static TestServer of(Supplier<Controllers> controllers, ServerConfig config) {
        return new TestServer(controllers, config);
    }

    /** A server started now, for a try-with-resources block. */
    public static TestServer start(Controllers controllers) {
        return start(controllers, ServerConfig.defaults());
    }

    public static TestServer start(Controllers controllers, ServerConfig config) {
        TestServer server = new TestServer(() -> controllers, config);
        server.open();
        return server;
    }

    /** The Widget controller under {@code /widget}. */
    public static Controllers widgets() {
        return Controllers.builder().composite("widget", Widget.class, new WidgetController()).build();
    }

    private void open() {
        server = HookServer.start(new HookEngine(controllers.get(), CLOCK), HookServer.Options.of(config.withHost("127.0.0.1").withPort(0)));
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        open();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        close();
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        if (server == null) {
            perTest = true;
            open();
        }
    }

    @Override
    public void afterEach(ExtensionContext context) {
        if (perTest) {
            close();
        }
    }

    private HookServer server() {
        if (server == null) {
            throw new IllegalStateException("not started: register the TestServer with @RegisterExtension, or use TestServer.start");
        }
        return server;
    }

    /** POSTs the body as JSON to this server: the one way the tests call a hook over HTTP. */
    public ValidatableResponse post(String path, byte[] body) {
        return given().port(port()).contentType("application/json").body(body).post(path).then().log().ifValidationFails();
    }

    public ValidatableResponse post(String path, String body) {
        return post(path, body.getBytes(StandardCharsets.UTF_8));
    }

    public int port() {
        return server().port();
    }

    /** The management port, or -1 when the server has none. */
    public int managementPort() {
        return server().managementPort();
    }

    public String url(String path) {
        return "http://127.0.0.1:" + port() + path;
    }

    @Override
    public void close() {
        if (server != null) {
            server.close();
            server = null;
        }
    }
}
