package dev.metahook.internal.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.api.CompositeController;
import dev.metahook.api.Controllers;
import dev.metahook.api.Result;
import dev.metahook.internal.engine.HookEngine;
import dev.metahook.testing.Requests;
import dev.metahook.testing.TestServer;
import dev.metahook.testing.Widget;
import dev.metahook.internal.wire.Json;
import io.fabric8.kubernetes.api.model.ConfigMap;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A call is charged for an observed child only when its controller reads it: a parent with more
 * children than the budget could hold as trees is answered when its controller reads one of them, and
 * refused when it reads them all; {@code 413} when no budget of this size could hold them, {@code 503}
 * with {@code Retry-After} when only the calls in flight leave no room. A controller that catches the
 * refusal and answers anyway (here: with no children, which would delete every one) is refused all the same.
 */
class ObservedChildrenBudgetTest {
    private static final long MIB = 1024 * 1024;
    private static final long BUDGET = 16 * MIB;
    private static final String LARGE_MESSAGE = "x".repeat(1_000_000);

    private final CountDownLatch entered = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);

    private final Controllers controllers = Controllers.builder()
            .composite("one", Widget.class, (CompositeController<Widget, Map<String, Object>>) (widget, context) ->
                    Result.<Map<String, Object>>of(context.children().lastApplied(ConfigMap.class, "cm-7").orElseThrow()).deletingUnlisted()
                            .withStatus(Map.of("entries", context.children().get(ConfigMap.class, "cm-7").orElseThrow().getData().size())))
            .composite("all", Widget.class, (CompositeController<Widget, Map<String, Object>>) (widget, context) ->
                    Result.<Map<String, Object>>keepingObserved().withStatus(Map.of("read", context.children().all(ConfigMap.class).size())))
            .composite("catching", Widget.class, (CompositeController<Widget, Map<String, Object>>) (widget, context) -> {
                int read;
                try {
                    read = context.children().all(ConfigMap.class).size();
                } catch (RuntimeException e) {
                    read = -1;
                }
                return Result.<Map<String, Object>>of().withStatus(Map.of("read", read));
            })
            .composite("blocking", Widget.class, (CompositeController<Widget, Map<String, Object>>) (widget, context) -> {
                entered.countDown();
                try {
                    release.await(60, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return Result.<Map<String, Object>>of().withStatus(Map.of());
            })
            .build();

    @Test
    void aParentWithMoreChildrenThanTheBudgetHoldsIsAnsweredWhenItsControllerReadsOne() throws Exception {
        byte[] body = sync(400);
        try (HookServer server = start()) {
            HttpClient client = HttpClient.newHttpClient();
            long available = MemoryBudget.cost(dev.metahook.internal.wire.ReferenceCensus.of(body));
            assertTrue(available > new MemoryBudget(BUDGET).largestCall(), "read as trees, the children would not fit: " + available);

            HttpResponse<String> one = client.send(post(server, "one", body), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, one.statusCode(), one.body());
            JsonNode answer = Json.parse(one.body().getBytes());
            assertEquals(200, answer.path("status").path("entries").asInt(), one.body());
            assertEquals(1, answer.path("children").size(), one.body());

            HttpResponse<String> all = client.send(post(server, "all", body), HttpResponse.BodyHandlers.ofString());
            assertRefused(all, 413, "body-too-costly");
            assertTrue(all.body().contains("observed objects this call reads"), all.body());

            HttpResponse<String> catching = client.send(post(server, "catching", body), HttpResponse.BodyHandlers.ofString());
            assertRefused(catching, 413, "body-too-costly");

            assertEquals(200, client.send(post(server, "one", body), HttpResponse.BodyHandlers.ofString()).statusCode(),
                    "every refusal gave back what its children had claimed");
        }
    }

    @Test
    void readingChildrenWhileTheBudgetIsSpentGets503AndTheSameCallPassesOnceThereIsRoom() throws Exception {
        byte[] body = sync(120);
        try (HookServer server = start()) {
            HttpClient client = HttpClient.newHttpClient();
            byte[] large = Requests.bytes(Requests.sync(Requests.widget("blocked", 1, LARGE_MESSAGE), List.of(), false));
            CompletableFuture<HttpResponse<String>> blocked = client.sendAsync(post(server, "blocking", large),
                    HttpResponse.BodyHandlers.ofString());
            assertTrue(entered.await(30, TimeUnit.SECONDS), "the blocking call reached its controller");

            HttpResponse<String> one = client.send(post(server, "one", body), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, one.statusCode(), "one child fits beside the blocked call: " + one.body());
            HttpResponse<String> all = client.send(post(server, "all", body), HttpResponse.BodyHandlers.ofString());
            assertRefused(all, 503, "overloaded");
            assertEquals(List.of("1"), all.headers().allValues("Retry-After"));
            HttpResponse<String> catching = client.send(post(server, "catching", body), HttpResponse.BodyHandlers.ofString());
            assertRefused(catching, 503, "overloaded");

            release.countDown();
            assertEquals(200, blocked.get(60, TimeUnit.SECONDS).statusCode());
            // The blocked call's memory is given back once its answer is written, which may end just after its client
            // has read it: the same call is sent again as a client honours 503 + Retry-After, a few times at most.
            HttpResponse<String> again = client.send(post(server, "all", body), HttpResponse.BodyHandlers.ofString());
            for (int retry = 0; retry < 10 && again.statusCode() == 503; retry++) {
                Thread.sleep(Long.parseLong(again.headers().firstValue("Retry-After").orElseThrow()) * 1000);
                again = client.send(post(server, "all", body), HttpResponse.BodyHandlers.ofString());
            }
            assertEquals(200, again.statusCode(), again.body());
            assertEquals(120, Json.parse(again.body().getBytes()).path("children").size(), "every child read and answered");
        }
    }

    private HookServer start() {
        return HookServer.start(new HookEngine(controllers, TestServer.CLOCK),
                HookServer.Options.of(ServerConfig.defaults().withHost("127.0.0.1").withPort(0)).budget(new MemoryBudget(BUDGET)));
    }

    private static void assertRefused(HttpResponse<String> response, int status, String type) {
        assertEquals(status, response.statusCode(), response.body());
        assertEquals("application/problem+json", response.headers().firstValue("Content-Type").orElseThrow());
        JsonNode problem = Json.parse(response.body().getBytes());
        assertEquals("urn:metahook:problem:" + type, problem.path("type").asText(), response.body());
    }

    /** A sync whose children are ConfigMaps of 200 entries each: about 7 KB of body, and ten times that as trees, each. */
    private static byte[] sync(int children) {
        List<ObjectNode> observed = new ArrayList<>();
        for (int i = 0; i < children; i++) {
            ObjectNode child = Requests.observedConfigMap("cm-" + i, 1, "hi");
            ObjectNode data = child.withObjectProperty("data");
            for (int entry = 0; entry < 198; entry++) {
                data.put("key-" + entry, "v" + entry);
            }
            observed.add(child);
        }
        return Requests.bytes(Requests.sync(Requests.widget("many", 1, "hi"), observed, false));
    }

    private static HttpRequest post(HookServer server, String controller, byte[] body) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/" + controller + "/sync"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .build();
    }
}
