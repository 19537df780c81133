package dev.metahook.internal.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.metahook.api.CompositeController;
import dev.metahook.api.Controllers;
import dev.metahook.api.Result;
import dev.metahook.internal.engine.HookEngine;
import dev.metahook.testing.RawHttp;
import dev.metahook.testing.Requests;
import dev.metahook.testing.TestServer;
import dev.metahook.testing.Widget;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The drain on one server in this JVM: a kept-alive connection stays open after shutdown began and
 * its next request is answered, with {@code Connection: close}; a quiet one is closed after
 * {@code SHUTDOWN_IDLE_SECONDS} (0 here: at once, as tests want); the listener's accept queue is the
 * configured one. {@code reliability.DrainIT} runs the same against the real process under load.
 */
class DrainTest {
    private static final byte[] REQUEST = Requests.bytes(Requests.sync(Requests.widget("drained", 1, "hi"), List.of(), false));

    private static HookServer start(ServerConfig config) {
        return HookServer.start(new HookEngine(TestServer.widgets(), TestServer.CLOCK), HookServer.Options.of(config.withHost("127.0.0.1").withPort(0)));
    }

    private static byte[] call(boolean close) {
        return ("POST /widget/sync HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" + (close ? "Connection: close\r\n" : "")
                + "Content-Length: " + REQUEST.length + "\r\n\r\n" + new String(REQUEST, StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aKeptConnectionGetsItsNextRequestAnsweredWithCloseDuringTheDrain() throws Exception {
        HookServer server = start(ServerConfig.defaults().withShutdownIdle(Duration.ofSeconds(30)));
        int port = server.port();
        try (Socket kept = new Socket("127.0.0.1", port)) {
            kept.setSoTimeout(30_000);
            kept.getOutputStream().write(call(false));
            RawHttp.Response before = RawHttp.read(kept.getInputStream());
            assertEquals(200, before.status());
            assertEquals(null, before.header("Connection"), "kept alive before the drain");

            CompletableFuture<Boolean> drained = CompletableFuture.supplyAsync(server::shutdown);
            untilDraining(server);
            assertThrows(ConnectException.class, () -> new Socket("127.0.0.1", port).close(), "the listener is closed");
            kept.getOutputStream().write(call(false));
            RawHttp.Response during = RawHttp.read(kept.getInputStream());
            assertEquals(200, during.status(), "answered, not refused: " + during.body());
            assertEquals("close", during.header("Connection"));
            assertEquals(-1, kept.getInputStream().read(), "closed once the answer that said close is written");
            assertTrue(drained.get(), "every call answered");
        }
    }

    @Test
    void aQuietConnectionIsClosedAfterTheShutdownIdleTime() throws Exception {
        HookServer server = start(ServerConfig.defaults().withShutdownIdle(Duration.ZERO));
        try (Socket kept = new Socket("127.0.0.1", server.port())) {
            kept.setSoTimeout(30_000);
            kept.getOutputStream().write(call(false));
            assertEquals(200, RawHttp.read(kept.getInputStream()).status());
            assertTrue(server.shutdown());
            InputStream in = kept.getInputStream();
            assertEquals(-1, in.read(), "closed by the drain, with nothing sent");
        }
    }

    @Test
    void aRequestThatArrivedAndWasNotAnsweredByTheTimeoutMakesTheDrainUnclean() throws Exception {
        HookServer server = start(ServerConfig.defaults().withShutdownIdle(Duration.ZERO).withShutdownTimeout(Duration.ofMillis(500)));
        try (Socket partWay = new Socket("127.0.0.1", server.port())) {
            partWay.getOutputStream().write("POST /widget/sync HTTP/1.1\r\nHost: 127.0.0.1\r\n".getBytes(StandardCharsets.US_ASCII));
            partWay.getOutputStream().flush();
            untilConnected(server);
            assertFalse(server.shutdown(), "a request part-way at the timeout is one the service did not answer: exit 1, not 0");
        }
    }

    @Test
    void aCallWhoseAnswerCannotBeWrittenDuringTheDrainMakesItUnclean() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Controllers blocking = Controllers.builder().composite("widget", Widget.class, (CompositeController<Widget, Map<String, Object>>) (widget, context) -> {
            entered.countDown();
            try {
                release.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return Result.<Map<String, Object>>of().withStatus(Map.of("message", widget.getSpec().message));
        }).build();
        HookServer server = HookServer.start(new HookEngine(blocking, TestServer.CLOCK),
                HookServer.Options.of(ServerConfig.defaults().withHost("127.0.0.1").withPort(0).withShutdownIdle(Duration.ZERO)));
        CompletableFuture<Boolean> drained;
        try (Socket resetting = new Socket("127.0.0.1", server.port())) {
            resetting.getOutputStream().write(call(false));
            assertTrue(entered.await(30, TimeUnit.SECONDS), "the call reached its controller");
            drained = CompletableFuture.supplyAsync(server::shutdown);
            untilDraining(server);
            resetting.setSoLinger(true, 0);
        }
        release.countDown();
        assertFalse(drained.get(), "a request that arrived and got no answer is an unclean drain: exit 1, not 0");
    }

    /**
     * A call still in flight when the drain's time is up is named once: in the deadline's listing, and not again when its
     * answer then fails to be written on the connection the stopping server closed.
     */
    @Test
    void aCallInFlightAtTheDrainsDeadlineIsLoggedOnce() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Controllers blocking = Controllers.builder().composite("widget", Widget.class, (CompositeController<Widget, Map<String, Object>>) (widget, context) -> {
            entered.countDown();
            try {
                release.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return Result.<Map<String, Object>>of().withStatus(Map.of("message", widget.getSpec().message));
        }).build();
        Logger drainLogger = (Logger) LoggerFactory.getLogger(Drain.class);
        Logger callLogger = (Logger) LoggerFactory.getLogger("metahook.calls");
        ListAppender<ILoggingEvent> drainLog = listen(drainLogger);
        ListAppender<ILoggingEvent> callLog = listen(callLogger);
        HookServer server = HookServer.start(new HookEngine(blocking, TestServer.CLOCK), HookServer.Options.of(ServerConfig.defaults()
                .withHost("127.0.0.1").withPort(0).withShutdownIdle(Duration.ZERO).withShutdownTimeout(Duration.ofMillis(500))));
        try (Socket inFlight = new Socket("127.0.0.1", server.port())) {
            inFlight.getOutputStream().write(call(false));
            assertTrue(entered.await(30, TimeUnit.SECONDS), "the call reached its controller");
            assertFalse(CompletableFuture.supplyAsync(server::shutdown).get(60, TimeUnit.SECONDS), "a call in flight at the deadline: unclean");
            release.countDown();
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (callLog.list.isEmpty() && System.nanoTime() - deadline < 0) {
                Thread.sleep(10);
            }
            assertEquals(1, callLog.list.size(), "the call is done, and logged as a call: " + callLog.list);
            String call = "POST /widget/sync from 127.0.0.1:" + inFlight.getLocalPort();
            List<String> naming = drainLog.list.stream().map(ILoggingEvent::getFormattedMessage).filter(line -> line.contains(call)).toList();
            assertEquals(1, naming.size(), "the drain's log names the call once: " + naming);
            assertTrue(naming.get(0).endsWith("(the drain's time was up)"), naming.get(0));
        } finally {
            release.countDown();
            drainLogger.detachAppender(drainLog);
            callLogger.detachAppender(callLog);
        }
    }

    private static ListAppender<ILoggingEvent> listen(Logger logger) {
        ListAppender<ILoggingEvent> appender = new ListAppender<>();
        appender.start();
        logger.addAppender(appender);
        return appender;
    }

    @Test
    void theListenerAcceptsInItsSelectorSoTheDrainCanTakeWhatTheKernelQueued() {
        try (HookServer server = start(ServerConfig.defaults().withShutdownIdle(Duration.ZERO))) {
            assertEquals(0, server.connector().getAcceptors());
        }
    }

    @Test
    void theListenerHasTheConfiguredAcceptQueue() {
        try (HookServer server = start(ServerConfig.defaults().withAcceptQueueSize(777).withShutdownIdle(Duration.ZERO))) {
            assertEquals(777, server.connector().getAcceptQueueSize());
        }
        try (HookServer server = start(ServerConfig.defaults().withShutdownIdle(Duration.ZERO))) {
            assertEquals(ServerConfig.DEFAULT_ACCEPT_QUEUE_SIZE, server.connector().getAcceptQueueSize());
        }
    }

    private static void untilConnected(HookServer server) {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (server.connector().getConnectedEndPoints().isEmpty() && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertFalse(server.connector().getConnectedEndPoints().isEmpty(), "the connection was accepted");
    }

    private static void untilDraining(HookServer server) {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!server.draining() && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertTrue(server.draining(), "the drain began");
    }
}
