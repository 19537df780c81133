package dev.metahook.internal.server;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.metahook.api.CompositeController;
import dev.metahook.api.Context;
import dev.metahook.api.Controllers;
import dev.metahook.api.Result;
import dev.metahook.internal.engine.HookEngine;
import dev.metahook.testing.Requests;
import dev.metahook.testing.TestServer;
import dev.metahook.testing.Widget;
import dev.metahook.testing.WidgetController;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** Warm-up calls before readiness: made through the engine and the HTTP path, never counted, never holding readiness for long. */
class WarmUpTest {
    private static final Duration PATIENCE = Duration.ofSeconds(60);
    private static final byte[] WIDGET_SYNC = Requests.bytes(Requests.sync(Requests.widget("hello", 3, "hi"),
            List.of(Requests.observedConfigMap("hello", 3, "hi")), false));
    private static final WarmUp.Call CALL = new WarmUp.Call("widget", "sync", WIDGET_SYNC);

    @Test
    void readinessWaitsForTheWarmUpCalls() throws Exception {
        CountingWidgets widgets = new CountingWidgets();
        CountDownLatch release = new CountDownLatch(1);
        widgets.gate = release;
        int port = freePort();
        CompletableFuture<HookServer> starting = CompletableFuture.supplyAsync(() -> HookServer.start(engine(widgets),
                HookServer.Options.of(ServerConfig.defaults().withHost("127.0.0.1").withPort(port)).warmUp(WarmUp.of(List.of(CALL)).within(PATIENCE))));
        try {
            poll(() -> widgets.calls.get() > 0, "the warm-up's first call");
            poll(() -> listening(port), "the listener");
            assertEquals(503, readiness(port), "not ready while a warm-up call runs");
            assertFalse(starting.isDone());
        } finally {
            release.countDown();
        }
        try (HookServer server = starting.get(PATIENCE.toSeconds(), TimeUnit.SECONDS)) {
            assertEquals(200, readiness(server.port()));
            assertEquals(5, widgets.calls.get(), "three rounds through the engine, two over HTTP, all before ready");
        }
    }

    @Test
    void warmUpCallsAreNeitherCountedNorLogged() throws Exception {
        Logger callLog = (Logger) LoggerFactory.getLogger("metahook.calls");
        ListAppender<ILoggingEvent> calls = new ListAppender<>();
        calls.start();
        callLog.addAppender(calls);
        CountingWidgets widgets = new CountingWidgets();
        try (HookServer server = HookServer.start(engine(widgets), HookServer.Options.of(ServerConfig.defaults().withHost("127.0.0.1").withPort(0))
                .warmUp(WarmUp.of(List.of(CALL)).within(PATIENCE)))) {
            assertEquals(5, widgets.calls.get());
            assertEquals(List.of(), calls.list, "no call log line for a warm-up call");
            String before = metrics(server.port());
            assertTrue(before.contains(
                    "metahook_hook_requests_seconds_count{code=\"200\",controller=\"widget\",hook=\"sync\",outcome=\"synced\"} 0\n"),
                    "no hook call counted:\n" + before);
            assertTrue(before.contains("metahook_hook_in_flight 0"), before);

            given().port(server.port()).body(WIDGET_SYNC).post("/widget/sync").then().statusCode(200);
            poll(() -> calls.list.size() == 1, "the first real call's log line (written after the answer)");
            poll(() -> metrics(server.port()).contains(
                    "metahook_hook_requests_seconds_count{code=\"200\",controller=\"widget\",hook=\"sync\",outcome=\"synced\"} 1"),
                    "the first real call counted (after its log line)");
        } finally {
            callLog.detachAppender(calls);
        }
    }

    @Test
    void aWarmUpThatNeverEndsHoldsReadinessOnlyForItsBudgetAndSaysSoAtInfo() {
        CountingWidgets widgets = new CountingWidgets();
        widgets.gate = new CountDownLatch(1);
        ListAppender<ILoggingEvent> warnings = warnings();
        try (HookServer server = HookServer.start(engine(widgets), HookServer.Options.of(ServerConfig.defaults().withHost("127.0.0.1").withPort(0))
                .warmUp(WarmUp.of(List.of(CALL)).within(Duration.ofMillis(200))))) {
            assertEquals(200, readiness(server.port()));
            assertEquals(List.of(), messages(warnings), "a late warm-up asks nothing of the user: no WARN");
            assertEquals(List.of("warm-up not done within 200 ms: ready anyway, the first calls will be slower"),
                    messages(warnings, Level.INFO));
        } finally {
            widgets.gate.countDown();
            detach(warnings);
        }
    }

    @Test
    void aFailingWarmUpCallIsAWarningAndTheServerIsReady() {
        ListAppender<ILoggingEvent> warnings = warnings();
        WarmUp.Call notARequest = new WarmUp.Call("widget", "sync", "[]".getBytes());
        try (HookServer server = HookServer.start(new HookEngine(TestServer.widgets(), TestServer.CLOCK),
                HookServer.Options.of(ServerConfig.defaults().withHost("127.0.0.1").withPort(0)).warmUp(WarmUp.of(List.of(notARequest)).within(PATIENCE)))) {
            assertEquals(200, readiness(server.port()));
            List<String> messages = messages(warnings);
            assertEquals(1, messages.size(), messages.toString());
            assertTrue(messages.get(0).startsWith("warm-up failed: warm-up call POST /widget/sync answered 400: "), messages.get(0));
        } finally {
            detach(warnings);
        }
    }

    @Test
    void withoutWarmUpTheServerIsReadyAtOnce() {
        CountingWidgets widgets = new CountingWidgets();
        try (HookServer server = HookServer.start(engine(widgets),
                HookServer.Options.of(ServerConfig.defaults().withHost("127.0.0.1").withPort(0)).warmUp(WarmUp.none()))) {
            assertEquals(200, readiness(server.port()));
            assertEquals(0, widgets.calls.get());
        }
    }

    /** The Widget controller, counting its calls and, when gated, waiting in each until the gate opens. */
    private static final class CountingWidgets implements CompositeController<Widget, Map<String, Object>> {
        private final WidgetController widgets = new WidgetController();
        private final AtomicInteger calls = new AtomicInteger();
        private volatile CountDownLatch gate;

        @Override
        public Result<Map<String, Object>> sync(Widget widget, Context context) {
            calls.incrementAndGet();
            if (gate != null) {
                try {
                    gate.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return widgets.sync(widget, context);
        }
    }

    private static HookEngine engine(CountingWidgets widgets) {
        return new HookEngine(Controllers.builder().composite("widget", Widget.class, widgets).build(), TestServer.CLOCK);
    }

    private static int readiness(int port) {
        return given().port(port).get("/readyz").statusCode();
    }

    private static boolean listening(int port) {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            return true;
        } catch (IOException notYet) {
            return false;
        }
    }

    private static String metrics(int port) {
        return given().port(port).get("/metrics").asString();
    }

    private static ListAppender<ILoggingEvent> warnings() {
        Logger logger = (Logger) LoggerFactory.getLogger(WarmUp.class);
        ListAppender<ILoggingEvent> appender = new ListAppender<>();
        appender.start();
        logger.addAppender(appender);
        return appender;
    }

    private static void detach(ListAppender<ILoggingEvent> appender) {
        ((Logger) LoggerFactory.getLogger(WarmUp.class)).detachAppender(appender);
    }

    private static List<String> messages(ListAppender<ILoggingEvent> appender) {
        return messages(appender, Level.WARN);
    }

    private static List<String> messages(ListAppender<ILoggingEvent> appender, Level level) {
        return appender.list.stream().filter(event -> event.getLevel() == level).map(ILoggingEvent::getFormattedMessage).toList();
    }

    private static void poll(BooleanSupplier done, String what) throws InterruptedException {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no " + what + " within " + PATIENCE);
            }
            Thread.sleep(10);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
