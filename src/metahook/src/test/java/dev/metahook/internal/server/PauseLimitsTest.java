package dev.metahook.internal.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.metahook.api.CompositeController;
import dev.metahook.api.Controllers;
import dev.metahook.internal.engine.HookEngine;
import dev.metahook.testing.RawHttp;
import dev.metahook.testing.Requests;
import dev.metahook.testing.TestServer;
import dev.metahook.testing.Widget;
import dev.metahook.testing.WidgetController;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.junit.jupiter.api.Test;

/**
 * The body's pause limit ({@link BodyIntake#READ_IDLE_TIMEOUT}) bounds pauses of the connection while the body is
 * read, and nothing else: a call that waited for a thread, or whose controller computed, for longer than that is
 * answered with the controller's answer, byte for byte what the engine answers the same request. Both hold by
 * Jetty's doing, which these tests pin down: its connection reads a request only once a thread runs it, so the idle
 * time a limit is measured against starts then; and an idle timeout that expires while the servlet is handling the
 * call, with no read or write pending, is ignored (and the idle time reset). A body that really pauses that long is
 * still refused ({@link HttpFramingTest}). Jetty's clock cannot be injected, hence the real waits.
 */
class PauseLimitsTest {
    /** Longer than a body may pause. */
    private static final Duration PAST_THE_BODY_LIMIT = BodyIntake.READ_IDLE_TIMEOUT.plusSeconds(2);
    private static final Duration BOUND = Duration.ofSeconds(60);

    /**
     * The server's thread pool is filled with calls whose controller waits (on a latch, not a clock) until no thread is
     * left, so the next call waits for one with its whole request already sent; it waits longer than a body may pause,
     * then is served.
     */
    @Test
    void aCallThatWaitedForAThreadLongerThanTheBodysPauseLimitIsAnsweredWithItsControllersAnswer() throws Exception {
        Held held = new Held();
        List<Socket> holding = new ArrayList<>();
        try (HookServer server = start(held.controllers())) {
            QueuedThreadPool pool = (QueuedThreadPool) server.connector().getServer().getThreadPool();
            try {
                for (int call = 0; call < pool.getMaxThreads(); call++) {
                    holding.add(send(server, "held"));
                }
                until(() -> full(pool), () -> "no thread is left; " + held.entered.get() + " held calls in their controller: " + pool);
                try (Socket queued = send(server, "queued")) {
                    Thread.sleep(PAST_THE_BODY_LIMIT.toMillis());
                    assertEquals(0, held.others.get(), "the call waited for a thread all that time, behind " + held.entered.get()
                            + " held calls: " + pool);
                    held.release.countDown();
                    queued.setSoTimeout((int) BOUND.toMillis());
                    RawHttp.Response answer = RawHttp.read(queued.getInputStream());
                    assertEquals(200, answer.status(), answer.body());
                    assertEquals(expected("queued"), answer.body());
                }
            } finally {
                held.release.countDown();
                for (Socket socket : holding) {
                    socket.close();
                }
            }
        }
    }

    @Test
    void aControllerThatComputesLongerThanTheBodysPauseLimitIsAnsweredWithItsAnswer() throws Exception {
        Controllers slow = Controllers.builder().composite("widget", Widget.class, (CompositeController<Widget, Map<String, Object>>) (widget, context) -> {
            try {
                Thread.sleep(PAST_THE_BODY_LIMIT.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return new WidgetController().sync(widget, context);
        }).build();
        try (HookServer server = start(slow); Socket call = send(server, "slow")) {
            call.setSoTimeout((int) BOUND.toMillis());
            RawHttp.Response answer = RawHttp.read(call.getInputStream());
            assertEquals(200, answer.status(), answer.body());
            assertEquals(expected("slow"), answer.body());
        }
    }

    /** Controllers whose sync waits for {@link #release} on a widget whose message is {@code held}, counting the calls that came. */
    private static final class Held {
        final CountDownLatch release = new CountDownLatch(1);
        final AtomicInteger entered = new AtomicInteger();
        final AtomicInteger others = new AtomicInteger();

        Controllers controllers() {
            WidgetController widgets = new WidgetController();
            return Controllers.builder().composite("widget", Widget.class, (CompositeController<Widget, Map<String, Object>>) (widget, context) -> {
                if (!"held".equals(widget.getSpec().message)) {
                    others.incrementAndGet();
                } else {
                    entered.incrementAndGet();
                    try {
                        release.await(BOUND.multipliedBy(5).toMillis(), TimeUnit.MILLISECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                return widgets.sync(widget, context);
            }).build();
        }
    }

    private static HookServer start(Controllers controllers) {
        return HookServer.start(new HookEngine(controllers, TestServer.CLOCK), HookServer.Options.of(ServerConfig.defaults()
                .withHost("127.0.0.1").withPort(0).withShutdownIdle(Duration.ZERO)));
    }

    private static byte[] body(String message) {
        return Requests.bytes(Requests.sync(Requests.widget(message, 1, message), List.of(), false));
    }

    /** What the engine answers a widget with this message, served by the plain Widget controller. */
    private static String expected(String message) {
        byte[] answer = new HookEngine(TestServer.widgets(), TestServer.CLOCK).handle("widget", "sync", body(message)).body();
        return new String(answer, StandardCharsets.UTF_8);
    }

    /** A whole sync request for a widget with this message, sent at once on a connection of its own. */
    private static Socket send(HookServer server, String message) throws IOException {
        byte[] body = body(message);
        byte[] head = ("POST /widget/sync HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nConnection: close\r\n"
                + "Content-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        byte[] request = new byte[head.length + body.length];
        System.arraycopy(head, 0, request, 0, head.length);
        System.arraycopy(body, 0, request, head.length, body.length);
        Socket socket = new Socket("127.0.0.1", server.port());
        socket.getOutputStream().write(request);
        socket.getOutputStream().flush();
        return socket;
    }

    /** Every thread the pool may have is busy, and a job waits for one. */
    private static boolean full(QueuedThreadPool pool) {
        return pool.getThreads() == pool.getMaxThreads() && pool.getIdleThreads() == 0 && pool.getQueueSize() > 0;
    }

    private static void until(BooleanSupplier condition, Supplier<String> what) throws InterruptedException {
        long deadline = System.nanoTime() + BOUND.toNanos();
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() - deadline < 0, () -> "not within " + BOUND.toSeconds() + " s: " + what.get());
            Thread.sleep(5);
        }
    }
}
