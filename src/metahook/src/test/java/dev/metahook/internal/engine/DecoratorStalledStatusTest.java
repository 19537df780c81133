package dev.metahook.internal.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.api.Conditions;
import dev.metahook.api.Controllers;
import dev.metahook.api.CustomResource;
import dev.metahook.api.Result;
import dev.metahook.api.TerminalException;
import dev.metahook.internal.wire.CanonicalJson;
import dev.metahook.internal.wire.Json;
import dev.metahook.testing.Fixtures;
import dev.metahook.testing.TestServer;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Version;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A decorator that keeps a status of its own on its target, called with Metacontroller's captured decorator request
 * whose target's stored status has a field of another type: the status is stalled as a composite's is, and a decorator's
 * other terminal errors still leave the target's status alone.
 */
class DecoratorStalledStatusTest {
    /** The captured request's target (a StatefulSet), read with a status of the decorator's own. */
    @Group("apps")
    @Version("v1")
    @Kind("StatefulSet")
    public static class Exposed extends CustomResource<Map<String, Object>, Exposed.Status> implements Namespaced {
        public record Status(Integer exposed, List<Condition> conditions) {
        }
    }

    private static final HookEngine ENGINE = new HookEngine(Controllers.builder()
            .decorator("exposer", Exposed.class, (target, context) -> Result.<Exposed.Status>keepingObserved()
                    .withStatus(new Exposed.Status(context.children().all(io.fabric8.kubernetes.api.model.Service.class).size(),
                            Conditions.from(target, context.clock()).ready("Exposed", "every pod has its Service").list())))
            .decorator("refuser", Exposed.class, (target, context) -> {
                throw new TerminalException("NotExposable", "this StatefulSet has no serviceName");
            })
            .build(), TestServer.CLOCK);

    @Test
    void aStoredStatusThatDoesNotFitStallsTheDecoratorsStatusAndKeepsTheAttachments() {
        ObjectNode request = capturedRequest();
        ((ObjectNode) request.get("object")).putObject("status").put("exposed", "three").put("replicas", 3);

        HookAnswer answer = ENGINE.handle("exposer", "sync", CanonicalJson.bytes(request));

        assertEquals(200, answer.status());
        JsonNode body = Json.parse(answer.body());
        assertEquals("three", body.at("/status/exposed").asText(), "the stored status is kept for a person to correct");
        assertEquals(3, body.at("/status/replicas").asInt());
        JsonNode stalled = condition(body.at("/status/conditions"), "Stalled");
        assertEquals("True", stalled.path("status").asText(), body.toString());
        assertEquals("InvalidStatus", stalled.path("reason").asText());
        assertTrue(stalled.path("message").asText().startsWith("/status/exposed: must be an integer, got \"three\""), stalled.toString());
        assertEquals("False", condition(body.at("/status/conditions"), "Ready").path("status").asText());
        assertEquals(names(request.at("/attachments/Service.v1")), names(body.get("attachments")), "every attachment kept");
        assertFalse(body.has("labels") || body.has("annotations"), "nothing else on the target changes: " + body);
        assertEquals("stalled", answer.outcome());
    }

    @Test
    void aStatusThatFitsIsTheDecoratorsOwnAnswer() {
        ObjectNode request = capturedRequest();
        ((ObjectNode) request.get("object")).putObject("status").put("exposed", 3);

        JsonNode body = Json.parse(ENGINE.handle("exposer", "sync", CanonicalJson.bytes(request)).body());

        assertEquals(3, body.at("/status/exposed").asInt());
        assertEquals("True", condition(body.at("/status/conditions"), "Ready").path("status").asText(), body.toString());
    }

    @Test
    void anotherTerminalErrorLeavesTheTargetsStatusAlone() {
        ObjectNode request = capturedRequest();
        ((ObjectNode) request.get("object")).putObject("status").put("exposed", 3);

        HookAnswer answer = ENGINE.handle("refuser", "sync", CanonicalJson.bytes(request));

        assertEquals(200, answer.status());
        JsonNode body = Json.parse(answer.body());
        assertFalse(body.has("status") && !body.get("status").isNull(), "the status may be another controller's: " + body);
        assertEquals(names(request.at("/attachments/Service.v1")), names(body.get("attachments")));
    }

    private static ObjectNode capturedRequest() {
        return (ObjectNode) Fixtures.json("metacontroller/03-decorator-sync-v1.request.json");
    }

    private static JsonNode condition(JsonNode conditions, String type) {
        for (JsonNode condition : conditions) {
            if (type.equals(condition.path("type").asText())) {
                return condition;
            }
        }
        throw new AssertionError("no " + type + " condition in " + conditions);
    }

    private static List<String> names(JsonNode objects) {
        List<String> names = new java.util.ArrayList<>();
        objects.forEach(object -> names.add(object.at("/metadata/name").asText()));
        names.sort(null);
        return names;
    }
}
