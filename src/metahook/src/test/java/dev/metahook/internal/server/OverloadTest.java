package dev.metahook.internal.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.api.CompositeController;
import dev.metahook.api.Controllers;
import dev.metahook.api.Result;
import dev.metahook.internal.engine.HookEngine;
import dev.metahook.testing.RawHttp;
import dev.metahook.testing.Requests;
import dev.metahook.testing.TestServer;
import dev.metahook.testing.Widget;
import dev.metahook.internal.wire.Json;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * When the calls in flight hold the whole memory budget, the next large call waits briefly and is
 * refused with {@code 503}, {@code Retry-After: 1} and a problem+json body; a small call still
 * passes, and once the blocked call is answered the large ones are taken again. The budget is tiny
 * and the first call blocks in its controller until the test lets it go, so the overload is certain.
 * A body no budget of this size could hold is refused with {@code 413} before any tree is built, a
 * body too large to read with {@code 413} unread, and a body nested too deep with {@code 400}.
 */
class OverloadTest {
    private static final long MIB = 1024 * 1024;
    private static final long BUDGET = 16 * MIB;
    /** A message that makes a call cost more than half the working share (six times its length): one such call in flight spends it. */
    private static final String LARGE_MESSAGE = "x".repeat(1_000_000);

    private final CountDownLatch entered = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);

    private Result<Map<String, Object>> blockingSync(Widget widget) {
        if (widget.getMetadata().getName().equals("blocked")) {
            entered.countDown();
            try {
                release.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return Result.<Map<String, Object>>of().withStatus(Map.of("message", widget.getSpec().message.length()));
    }

    @Test
    void aCallThatFindsTheBudgetSpentGets503WithRetryAfterOne() throws Exception {
        Controllers controllers = Controllers.builder()
                .composite("widget", Widget.class, (CompositeController<Widget, Map<String, Object>>) (widget, context) -> blockingSync(widget)).build();
        try (HookServer server = HookServer.start(new HookEngine(controllers, TestServer.CLOCK),
                HookServer.Options.of(ServerConfig.defaults().withHost("127.0.0.1").withPort(0)).budget(new MemoryBudget(BUDGET)))) {
            HttpClient client = HttpClient.newHttpClient();
            CompletableFuture<HttpResponse<String>> blocked = client.sendAsync(post(server, "blocked", LARGE_MESSAGE),
                    HttpResponse.BodyHandlers.ofString());
            assertTrue(entered.await(30, TimeUnit.SECONDS), "the first call reached its controller");

            HttpResponse<String> refused = client.send(post(server, "second", LARGE_MESSAGE), HttpResponse.BodyHandlers.ofString());
            assertEquals(503, refused.statusCode(), refused.body());
            assertEquals(List.of("1"), refused.headers().allValues("Retry-After"));
            assertEquals("application/problem+json", refused.headers().firstValue("Content-Type").orElseThrow());
            JsonNode problem = Json.parse(refused.body().getBytes());
            assertEquals("urn:metahook:problem:overloaded", problem.path("type").asText(), refused.body());
            assertEquals(503, problem.path("status").asInt());

            HttpResponse<String> small = client.send(post(server, "small", "hi"), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, small.statusCode(), "a small call has its own share: " + small.body());

            release.countDown();
            assertEquals(200, blocked.get(60, TimeUnit.SECONDS).statusCode());
            HttpResponse<String> again = client.send(post(server, "second", LARGE_MESSAGE), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, again.statusCode(), "the budget is given back once the blocked call is answered");
            assertEquals(1_000_000, Json.parse(again.body().getBytes()).at("/status/message").asInt(), again.body());
        } finally {
            release.countDown();
        }
    }

    @Test
    void aBodyNoBudgetCouldHoldIsRefusedWith413AndOneNestedTooDeepWith400() throws Exception {
        Controllers controllers = Controllers.builder()
                .composite("widget", Widget.class, (CompositeController<Widget, Map<String, Object>>) (widget, context) -> blockingSync(widget)).build();
        try (HookServer server = HookServer.start(new HookEngine(controllers, TestServer.CLOCK),
                HookServer.Options.of(ServerConfig.defaults().withHost("127.0.0.1").withPort(0)).budget(new MemoryBudget(BUDGET)))) {
            HttpClient client = HttpClient.newHttpClient();
            Map<String, Object> manyObjects = Map.of("many", Collections.nCopies(60_000, Map.of()));
            HttpResponse<String> costly = client.send(post(server, Requests.bytes(Requests.sync(widgetWith(manyObjects), List.of(), false))),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(413, costly.statusCode(), costly.body());
            JsonNode problem = Json.parse(costly.body().getBytes());
            assertEquals("urn:metahook:problem:body-too-costly", problem.path("type").asText(), costly.body());
            assertTrue(problem.path("detail").asText().contains("of heap"), costly.body());

            HttpResponse<String> unread = client.send(post(server, ("{\"a\":\"" + "y".repeat((int) (5 * MIB)) + "\"}").getBytes()),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(413, unread.statusCode(), "larger than the reading share (a quarter of 16 MiB): " + unread.body());
            assertTrue(unread.body().contains("can read at once"), unread.body());

            byte[] deep = ("{\"parent\":" + "[".repeat(250) + "]".repeat(250) + "}").getBytes();
            HttpResponse<String> tooDeep = client.send(post(server, deep), HttpResponse.BodyHandlers.ofString());
            assertEquals(400, tooDeep.statusCode(), tooDeep.body());
            assertTrue(tooDeep.body().contains("nested deeper than 200 levels"), tooDeep.body());

            HttpResponse<String> small = client.send(post(server, "small", "hi"), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, small.statusCode(), "every refusal gave its share back: " + small.body());
        }
    }

    /**
     * A body refused while it is still arriving is read and dropped for up to 10 s from the refusal, so its client,
     * which writes its whole body before it reads, sees the {@code 503}. Here the refusal comes after the 2 s admission
     * wait, and the body keeps arriving (a piece every 0.95 s, well within the read limits) until 10.5 s after the call
     * began: a bound of 10 s counted from the call's start would close the connection under the client.
     */
    @Test
    void aClientStillSendingItsBodyAfterTheRefusalReadsThe503() throws Exception {
        MemoryBudget budget = new MemoryBudget(BUDGET);
        Controllers controllers = Controllers.builder()
                .composite("widget", Widget.class, (CompositeController<Widget, Map<String, Object>>) (widget, context) -> blockingSync(widget)).build();
        try (HookServer server = HookServer.start(new HookEngine(controllers, TestServer.CLOCK),
                HookServer.Options.of(ServerConfig.defaults().withHost("127.0.0.1").withPort(0)).budget(budget));
             Socket holding = new Socket("127.0.0.1", server.port());
             Socket refused = new Socket("127.0.0.1", server.port())) {
            // Half of a 3.5 MiB body holds most of the reading share (a quarter of 16 MiB) while the rest is awaited.
            int held = (int) (3.5 * MIB);
            holding.getOutputStream().write(head(held));
            holding.getOutputStream().write(new byte[held / 2]);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (budget.available() > BUDGET - 3 * MIB && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertTrue(budget.available() <= BUDGET - 3 * MIB, "the first call holds the reading share");

            int length = (int) MIB;
            OutputStream out = refused.getOutputStream();
            out.write(head(length));
            int pieces = 12;
            for (int i = 0; i < pieces; i++) {
                Thread.sleep(i == 0 ? 0 : 950);
                out.write(new byte[length / pieces + (i == pieces - 1 ? length % pieces : 0)]);
                out.flush();
            }
            refused.setSoTimeout(30_000);
            RawHttp.Response answer = RawHttp.read(refused.getInputStream());
            assertEquals(503, answer.status(), answer.body());
            assertFalse("close".equals(answer.headers().get("connection")), "the body was read whole, the connection stays open");
        }
    }

    private static byte[] head(int length) {
        return ("POST /widget/sync HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: " + length + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII);
    }

    private static ObjectNode widgetWith(Map<String, Object> extra) {
        ObjectNode widget = Requests.widget("costly", 1, "hi");
        widget.withObjectProperty("spec").set("extra", Json.tree(extra));
        return widget;
    }

    private static HttpRequest post(HookServer server, byte[] body) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/widget/sync"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .build();
    }

    private static HttpRequest post(HookServer server, String name, String message) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/widget/sync"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(Requests.bytes(Requests.sync(Requests.widget(name, 1, message), List.of(), false))))
                .build();
    }
}
