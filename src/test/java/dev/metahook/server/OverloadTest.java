package dev.metahook.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahook.api.CompositeController;
import dev.metahook.api.Controllers;
import dev.metahook.api.Result;
import dev.metahook.engine.HookEngine;
import dev.metahook.testing.Requests;
import dev.metahook.testing.TestServer;
import dev.metahook.testing.Widget;
import dev.metahook.wire.Json;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
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
 */
class OverloadTest {
    private static final long MIB = 1024 * 1024;
    /** A message that makes the body cost more than the whole budget: one such call in flight spends it. */
    private static final String LARGE_MESSAGE = "x".repeat(200_000);

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
        try (HookServer server = HookServer.start(ServerConfig.defaults().withHost("127.0.0.1").withPort(0),
                new HookEngine(controllers, TestServer.CLOCK), new MemoryBudget(MIB))) {
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
            assertEquals(200_000, Json.parse(again.body().getBytes()).at("/status/message").asInt(), again.body());
        } finally {
            release.countDown();
        }
    }

    private static HttpRequest post(HookServer server, String name, String message) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/widget/sync"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(Requests.bytes(Requests.sync(Requests.widget(name, 1, message), List.of(), false))))
                .build();
    }
}
