package dev.metahook.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.api.Controllers;
import dev.metahook.testing.StoredObjects;
import dev.metahook.testkit.Answer;
import dev.metahook.testkit.HookTester;
import dev.metahook.internal.wire.Json;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * What the tests against the original examples share. Each of those tests sends requests of its own
 * through the test kit and asserts the answer the original hook gives to the same request, worked
 * out by reading the original's source (Metacontroller's {@code examples/<name>/}); where the
 * original fails (an error, so Metacontroller retries and changes nothing) the port's documented
 * answer is asserted instead, and the test says so.
 */
public final class OriginalAnswers {
    private OriginalAnswers() {
    }

    /** The example as registered in its manifest, with v1 hooks as the originals are registered. */
    public static HookTester v1(String name, String manifest) {
        return HookTester.of(ExampleCalls.controllers(), name, Path.of(manifest));
    }

    /** The same registration with {@code version: v2} on every hook: namespaced objects keyed {@code namespace/name}. */
    public static HookTester v2(Controllers controllers, String name, String manifest) {
        ObjectNode controller = StoredObjects.manifest(manifest);
        controller.withObjectProperty("spec").withObjectProperty("hooks").properties().iterator().forEachRemaining(hook -> ((ObjectNode) hook.getValue()).put("version", "v2"));
        try {
            Path file = Files.createTempFile("controller-v2-", ".yaml");
            file.toFile().deleteOnExit();
            Files.writeString(file, controller.toString(), StandardCharsets.UTF_8);
            return HookTester.of(controllers, name, file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static HookTester v2(String name, String manifest) {
        return v2(ExampleCalls.controllers(), name, manifest);
    }

    /** An object exactly as written, for a parent or an observed child whose JSON the test decides field by field. */
    public static GenericKubernetesResource object(JsonNode tree) {
        try {
            return Json.convert(tree, GenericKubernetesResource.class);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(e);
        }
    }

    /** A copy of a manifest of {@code examples/}, to edit. */
    public static ObjectNode manifest(String path) {
        return StoredObjects.manifest(path);
    }

    /** JSON written inline with single quotes. */
    public static JsonNode json(String text) {
        return StoredObjects.json(text);
    }

    /** The answer's body. */
    public static JsonNode body(Answer answer) {
        assertEquals(200, answer.code(), answer::toString);
        return Json.parse(answer.body());
    }

    /**
     * The answer's children (a decorator's attachments) as an original writes them: without the
     * parent's namespace, which the originals leave to Metacontroller and metahook writes out, in kind
     * and name order. The order of an answer is asserted on its own where the original's order
     * matters (it is the controller's, not the engine's, that counts there).
     */
    public static List<JsonNode> children(Answer answer, String parentNamespace) {
        JsonNode body = body(answer);
        JsonNode list = body.has("attachments") ? body.get("attachments") : body.path("children");
        List<JsonNode> children = new ArrayList<>();
        for (JsonNode child : list) {
            ObjectNode copy = child.deepCopy();
            if (parentNamespace != null && parentNamespace.equals(copy.path("metadata").path("namespace").asText(null))) {
                copy.withObjectProperty("metadata").remove("namespace");
            }
            children.add(copy);
        }
        children.sort(ORDER);
        return children;
    }

    /** The answer has exactly these children, each field for field as the original writes it. */
    public static void assertChildren(List<? extends JsonNode> expected, Answer answer, String parentNamespace) {
        List<JsonNode> sorted = new ArrayList<>(expected);
        sorted.sort(ORDER);
        assertEquals(sorted, children(answer, parentNamespace), answer::toString);
    }

    /** The answer's status has these fields with these values (a port may add conditions the original does not have). */
    public static void assertStatus(Map<String, JsonNode> expected, Answer answer) {
        JsonNode status = body(answer).path("status");
        expected.forEach((field, value) -> assertEquals(value, status.get(field), () -> "status." + field + " of " + answer));
    }

    /** The answer keeps every observed child as it was last applied and says {@code Stalled=True} with this reason. */
    public static void assertStalledKeepingEverything(List<? extends JsonNode> lastApplied, String reason, Answer answer, String parentNamespace) {
        assertChildren(lastApplied, answer, parentNamespace);
        boolean stalled = false;
        for (JsonNode condition : body(answer).path("status").path("conditions")) {
            stalled |= "Stalled".equals(condition.path("type").asText()) && "True".equals(condition.path("status").asText())
                    && reason.equals(condition.path("reason").asText());
        }
        assertTrue(stalled, () -> "Stalled=True " + reason + " in " + answer);
    }

    private static final Comparator<JsonNode> ORDER = Comparator
            .comparing((JsonNode child) -> child.path("kind").asText())
            .thenComparing(child -> child.path("metadata").path("namespace").asText())
            .thenComparing(child -> child.path("metadata").path("name").asText());
}
