package dev.metahook.internal.sim;

import static dev.metahook.testing.StoredObjects.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.metahook.internal.contract.Breach;
import dev.metahook.testing.TestServer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A breach quotes an answer or an object without cutting a sentence in the middle (issue 37 papercuts). */
class BreachTextTest {
    private static final ControllerSpec WIDGETS = ControllerSpec.read(json("{'apiVersion':'metacontroller.k8s.io/v1alpha1','kind':'CompositeController',"
            + "'metadata':{'name':'widget-controller'},'spec':{'generateSelector':true,'parentResource':{'apiVersion':'example.com/v1',"
            + "'resource':'widgets'},'hooks':{'sync':{'webhook':{'url':'http://hooks/sync'}}}}}"));
    private static final String DETAIL = "the answer leaves out the observed ConfigMap default/w-data without deleting it: return it, or say"
            + " deleting(ConfigMap.class, \"w-data\") or deletingUnlisted() when it is meant to go; Metacontroller would delete it at once,"
            + " and a controller that forgot a child would lose its data. This sentence makes the detail longer than any limit a breach had.";

    private static Breach statusBreach(String contentType, String body) {
        HookClient hook = (name, request) -> new HookClient.Reply(500, Map.of("Content-Type", contentType),
                body.getBytes(StandardCharsets.UTF_8), Duration.ZERO, null);
        List<Breach> breaches = new Checker(WIDGETS, hook, TestServer.CLOCK, 5)
                .check(json("{'apiVersion':'example.com/v1','kind':'Widget','metadata':{'name':'w','namespace':'default'},'spec':{}}"), null)
                .breaches().stream().map(found -> new Breach(found.kind(), found.message())).toList();
        return breaches.stream().filter(breach -> breach.kind().equals("status")).findFirst().orElseThrow(() -> new AssertionError(breaches));
    }

    @Test
    void aProblemsDetailIsQuotedWhole() {
        assertTrue(DETAIL.length() > 300);
        Breach breach = statusBreach("application/problem+json",
                "{\"type\":\"about:blank\",\"title\":\"Internal Server Error\",\"status\":500,\"detail\":" + dev.metahook.internal.wire.Json.mapper().getNodeFactory().textNode(DETAIL) + "}");
        assertEquals("sync answered 500: Internal Server Error: " + DETAIL, breach.detail());
    }

    @Test
    void longTextEndsAtTheEndOfASentenceAndSaysHowMuchMoreThereWas() {
        String text = "First sentence, short. " + "Second sentence ".repeat(15).trim() + ". Third one goes past every limit " + "x".repeat(400);
        String quoted = statusBreach("text/plain", text).detail();
        String shown = text.substring(0, text.indexOf(". Third") + 1);
        assertEquals("sync answered 500: " + shown + " (" + (text.length() - shown.length()) + " more characters)", quoted);
    }

    @Test
    void jsonIsCutAfterAWholeField() {
        String status = "{'phase':'Stalled','message':'" + "a sentence of a message. ".repeat(4).trim() + "','other':'" + "y".repeat(200) + "'}";
        String quoted = Excerpt.json(json(status));
        assertTrue(quoted.startsWith("{\"phase\":\"Stalled\",\"message\":\"a sentence"), quoted);
        assertTrue(quoted.endsWith("a sentence of a message.\", … 1 more fields}"), quoted);
    }
}
