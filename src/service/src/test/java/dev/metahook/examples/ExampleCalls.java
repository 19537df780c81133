package dev.metahook.examples;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.api.Controllers;
import dev.metahook.internal.sim.ControllerSpec;
import dev.metahook.internal.sim.Checker;
import dev.metahook.internal.sim.HttpHook;
import dev.metahook.testing.StoredObjects;
import dev.metahook.testing.TestServer;
import dev.metahook.internal.wire.Json;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

/** The examples on the stock server, and what their tests share: calls over HTTP, answers compared as the originals write them. */
public final class ExampleCalls {
    private ExampleCalls() {
    }

    /** Every example, registered as the stock server registers them. */
    public static Controllers controllers() {
        return Examples.addTo(Controllers.builder()).build();
    }

    /** The answer's bytes; fails unless it is a 200. */
    public static byte[] bytes(TestServer server, String path, byte[] body) {
        return server.post(path, body).statusCode(200).contentType("application/json").extract().asByteArray();
    }

    /**
     * The same request, sent again and then with its keys in another order, gets the same bytes: the
     * answer Metacontroller compares between calls never changes without a cause.
     */
    public static void assertSameBytesWhateverKeyOrder(TestServer server, String path, byte[] request, long seed) {
        byte[] first = bytes(server, path, request);
        assertArrayEquals(first, bytes(server, path, request));
        byte[] shuffled = Checker.shuffle(Json.parse(request), new Random(seed)).toString().getBytes(StandardCharsets.UTF_8);
        assertArrayEquals(first, bytes(server, path, shuffled));
    }

    public static JsonNode post(TestServer server, String path, byte[] body) {
        return Json.parse(bytes(server, path, body));
    }

    /**
     * An answer as the upstream examples write it: objects without the parent's namespace (which
     * Metacontroller fills in and metahook writes out), in kind and name order. Key order never
     * matters in a JSON comparison.
     */
    public static JsonNode asUpstreamWritesIt(JsonNode answer, String listField) {
        ObjectNode copy = answer.deepCopy();
        List<JsonNode> objects = new ArrayList<>();
        answer.path(listField).forEach(object -> {
            ObjectNode withoutNamespace = object.deepCopy();
            withoutNamespace.withObjectProperty("metadata").remove("namespace");
            objects.add(withoutNamespace);
        });
        objects.sort(Comparator.comparing(object -> object.path("kind").asText() + "/" + object.path("metadata").path("name").asText()));
        ArrayNode list = copy.putArray(listField);
        objects.forEach(list::add);
        return copy;
    }

    /** A manifest of {@code examples/<name>/}. */
    public static ObjectNode manifest(String example, String file) {
        return StoredObjects.manifest("examples/" + example + "/" + file);
    }

    /** The simulator's client for a registration, calling this server at the registration's paths. */
    public static HttpHook hooks(ControllerSpec spec, TestServer server) {
        return HttpHook.of(spec, URI.create(server.url("")));
    }
}
