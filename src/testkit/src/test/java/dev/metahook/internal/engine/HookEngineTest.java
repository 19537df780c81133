package dev.metahook.internal.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.api.Controllers;
import dev.metahook.api.Result;
import dev.metahook.api.TransientException;
import dev.metahook.internal.sim.Checker;
import dev.metahook.testing.Requests;
import dev.metahook.testing.TestServer;
import dev.metahook.testing.Widget;
import dev.metahook.testing.WidgetController;
import dev.metahook.internal.wire.CanonicalJson;
import dev.metahook.internal.wire.Json;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The engine alone, without HTTP: decode, dispatch, guards, encoding and the error taxonomy, each failure pointing here. */
class HookEngineTest {
    private static final HookEngine ENGINE = new HookEngine(Controllers.builder()
            .composite("widget", Widget.class, new WidgetController())
            .composite("slow", Widget.class, (widget, context) -> {
                throw new TransientException("not yet", Duration.ofMillis(1200));
            })
            .composite("undeclared", Widget.class, (widget, context) -> Result.of(new SecretBuilder()
                    .withNewMetadata().withName("s").endMetadata().build()).deletingUnlisted())
            .composite("omits", Widget.class, (widget, context) -> Result.of())
            .composite("ratio", Widget.class, (widget, context) -> Result.keepingObserved().withStatus(Map.of("ratio", 6.0 / 2)))
            .build(), TestServer.CLOCK);

    private static byte[] sync(String message) {
        return Requests.bytes(Requests.sync(Requests.widget("hello", 3, message), List.of(), false));
    }

    private static JsonNode problem(HookAnswer answer) {
        assertEquals("application/problem+json", answer.contentType());
        return Json.parse(answer.body());
    }

    @Test
    void answersASyncWithCanonicalBytes() {
        HookAnswer answer = ENGINE.handle("widget", "sync", sync("hi"));
        assertEquals(200, answer.status());
        assertEquals("synced", answer.outcome());
        assertEquals(1, answer.facts().desired());
        assertEquals("default/hello", answer.facts().parent());
        JsonNode body = Json.parse(answer.body());
        assertArrayEquals(CanonicalJson.bytes(body), answer.body(), "keys sorted, compact");
    }

    @Test
    void theSameRequestInAnotherKeyOrderGivesTheSameBytes() {
        ObjectNode request = Requests.sync(Requests.widget("hello", 3, "hi"), List.of(Requests.observedConfigMap("hello", 3, "hi")), false);
        byte[] canonical = ENGINE.handle("widget", "sync", CanonicalJson.bytes(request)).body();
        byte[] shuffled = ENGINE.handle("widget", "sync",
                Checker.shuffle(request, new Random(7)).toString().getBytes(StandardCharsets.UTF_8)).body();
        assertArrayEquals(canonical, shuffled);
    }

    @Test
    void wholeNumbersAreWrittenAsIntegers() {
        assertEquals("{\"children\":[],\"status\":{\"ratio\":3}}",
                new String(ENGINE.handle("ratio", "sync", sync("hi")).body(), StandardCharsets.UTF_8));
    }

    @Test
    void anUnknownControllerOrHookIsA404NamingWhatThereIs() {
        HookAnswer controller = ENGINE.handle("nope", "sync", sync("hi"));
        assertEquals(404, controller.status());
        assertTrue(problem(controller).path("detail").asText().contains("[omits, ratio, slow, undeclared, widget]"),
                problem(controller).toString());
        HookAnswer hook = ENGINE.handle("ratio", "finalize", sync("hi"));
        assertEquals(404, hook.status());
        assertTrue(problem(hook).path("detail").asText().contains("it has [sync]"), problem(hook).toString());
    }

    @Test
    void aBodyThatIsNotARequestIsA400WithAPointer() {
        HookAnswer answer = ENGINE.handle("widget", "sync", "{\"controller\":{},\"parent\":[]}".getBytes(StandardCharsets.UTF_8));
        assertEquals(400, answer.status());
        assertEquals("/parent", problem(answer).path("pointer").asText());
    }

    @Test
    void aTransientErrorIsA429WithRetryAfterInWholeSecondsRoundedUp() {
        HookAnswer answer = ENGINE.handle("slow", "sync", sync("hi"));
        assertEquals(429, answer.status());
        assertEquals("2", answer.headers().get("Retry-After"));
        assertEquals("not yet", problem(answer).path("detail").asText());
    }

    @Test
    void aBugIsA500WithoutAStackTrace() {
        HookAnswer answer = ENGINE.handle("widget", "sync", sync("boom"));
        assertEquals(500, answer.status());
        assertEquals("controller-failed", answer.outcome());
        String detail = problem(answer).path("detail").asText();
        assertEquals("controller widget failed on Widget default/hello: IllegalStateException: boom", detail);
        assertFalse(new String(answer.body(), StandardCharsets.UTF_8).contains("at dev.metahook"));
    }

    @Test
    void anInvalidSpecIsTerminalAndKeepsEveryChild() {
        ObjectNode request = Requests.sync(Requests.widget("hello", -1, "hi"), List.of(Requests.observedConfigMap("hello", 3, "hi")), false);
        HookAnswer answer = ENGINE.handle("widget", "sync", Requests.bytes(request));
        assertEquals(200, answer.status());
        assertEquals("stalled", answer.outcome());
        JsonNode body = Json.parse(answer.body());
        assertEquals(1, body.get("children").size());
        assertEquals("InvalidSpec", body.at("/status/conditions/2/reason").asText());
    }

    @Test
    void anAnswerTheGuardsRefuseIsA500ListingEveryViolationAndNothingElse() {
        HookAnswer answer = ENGINE.handle("undeclared", "sync", sync("hi"));
        assertEquals(500, answer.status());
        JsonNode problem = problem(answer);
        assertEquals("urn:metahook:problem:response-refused", problem.path("type").asText());
        assertEquals(1, problem.path("violations").size(), problem.toString());
        assertEquals("undeclared: child Secret s: Secret.v1 is not declared in the controller's spec.childResources (Metacontroller would create it"
                + " but never observe, update or delete it)", problem.path("violations").get(0).asText());
        assertFalse(problem.has("children"), "nothing of the refused answer is sent");
    }

    @Test
    void anAnswerThatWouldDeleteObservedChildrenByOmissionIsRefused() {
        ObjectNode request = Requests.sync(Requests.widget("hello", 3, "hi"), List.of(Requests.observedConfigMap("hello", 3, "hi")), false);
        HookAnswer omitted = ENGINE.handle("omits", "sync", Requests.bytes(request));
        assertEquals(500, omitted.status());
        assertTrue(problem(omitted).path("violations").toString().contains("hello"), problem(omitted).toString());
        assertEquals(200, ENGINE.handle("omits", "sync", sync("hi")).status(), "with nothing observed there is nothing to lose");
    }
}
