package dev.metahook.internal.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.api.Controllers;
import dev.metahook.controllers.database.Database;
import dev.metahook.controllers.database.DatabaseController;
import dev.metahook.controllers.webapp.WebApp;
import dev.metahook.controllers.webapp.WebAppController;
import dev.metahook.examples.Examples;
import dev.metahook.internal.sim.Checker;
import dev.metahook.testing.Fixtures;
import dev.metahook.testing.StoredObjects;
import dev.metahook.testing.TestServer;
import dev.metahook.internal.wire.CanonicalJson;
import dev.metahook.internal.wire.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The engine's answers to a fixed set of requests (the reference controllers' sync and finalize, the
 * examples' sync, finalize, customize and decorator hooks, a thousand children, odd and bad inputs),
 * compared byte for byte with the answers recorded in {@code src/test/resources/answers/}. Whatever
 * the engine's insides become, Metacontroller must see exactly these bytes. {@code -Danswers.record=true}
 * writes the files anew (and fails, so a recording run is never taken for a check).
 */
class AnswerBytesTest {
    private static final HookEngine ENGINE = new HookEngine(Examples.addTo(Controllers.builder()
            .composite("webapp", WebApp.class, new WebAppController())
            .composite("database", Database.class, new DatabaseController("answer bytes test key".getBytes(StandardCharsets.UTF_8))))
            .build(), TestServer.CLOCK);
    private static final boolean RECORD = Boolean.getBoolean("answers.record");

    /** A call: controller, hook and body; the expected status is the first part of the answer's file name. */
    private record Call(String controller, String hook, int status, Supplier<byte[]> body) {
    }

    @TestFactory
    Stream<DynamicTest> answersAreTheRecordedBytes() {
        return calls().entrySet().stream().map(entry -> DynamicTest.dynamicTest(entry.getKey(), () -> check(entry.getKey(), entry.getValue())));
    }

    private static void check(String name, Call call) throws IOException {
        HookAnswer answer = ENGINE.handle(call.controller(), call.hook(), call.body().get());
        String file = name + ".json";
        if (RECORD) {
            Path dir = Path.of("src/service/src/test/resources/answers");
            Files.createDirectories(dir);
            Files.write(dir.resolve(file), answer.body());
            fail("recorded " + file + " (status " + answer.status() + "); run again without -Danswers.record");
        }
        assertEquals(call.status(), answer.status(), name + ": " + new String(answer.body(), StandardCharsets.UTF_8));
        String expected = new String(recorded(file), StandardCharsets.UTF_8);
        assertEquals(expected, new String(answer.body(), StandardCharsets.UTF_8), name);
    }

    private static Map<String, Call> calls() {
        Map<String, Call> calls = new LinkedHashMap<>();
        calls.put("webapp-sync", new Call("webapp", "sync", 200, () -> example("webapp-sync")));
        calls.put("webapp-sync-captured", new Call("webapp", "sync", 200, () -> captured("v1.5.14-webapp-sync-observed")));
        calls.put("webapp-sync-shuffled", new Call("webapp", "sync", 200, () -> shuffled(captured("v1.5.14-webapp-sync-observed"), 17)));
        calls.put("webapp-sync-1000-leftovers", new Call("webapp", "sync", 200, () -> withLeftovers(captured("v1.5.14-webapp-sync-observed"), 1000)));
        calls.put("webapp-sync-invalid-spec", new Call("webapp", "sync", 200, () -> edited(example("webapp-sync"),
                request -> request.withObjectProperty("parent").withObjectProperty("spec").put("replicas", "three"))));
        calls.put("webapp-sync-pretty-unicode", new Call("webapp", "sync", 200, () -> pretty(edited(example("webapp-sync"),
                request -> request.withObjectProperty("parent").withObjectProperty("metadata").withObjectProperty("annotations").put("note", "caf\u00e9 \u2603 \uD83D\uDE00 \"q\" \\ \u0001")))));
        calls.put("webapp-sync-wrong-kind", new Call("webapp", "sync", 400, () -> edited(example("webapp-sync"),
                request -> request.withObjectProperty("parent").put("kind", "Database"))));
        calls.put("webapp-sync-misfit-child", new Call("webapp", "sync", 400, () -> edited(captured("v1.5.14-webapp-sync-observed"),
                request -> ((ObjectNode) request.at("/children/Deployment.apps~1v1/hello/metadata")).put("name", "other"))));
        calls.put("webapp-sync-not-json", new Call("webapp", "sync", 400, () -> "{\"controller\":{},\"parent\":{\"kind\":".getBytes(StandardCharsets.UTF_8)));
        calls.put("webapp-sync-array", new Call("webapp", "sync", 400, () -> "[]".getBytes(StandardCharsets.UTF_8)));
        calls.put("webapp-sync-decorator-body", new Call("webapp", "sync", 400, () -> Fixtures.bytes("metacontroller/03-decorator-sync-v1.request.json")));
        calls.put("database-sync", new Call("database", "sync", 200, () -> example("database-sync")));
        calls.put("database-finalize-drain", new Call("database", "finalize", 200, () -> example("database-finalize-drain")));
        calls.put("database-finalize-backup", new Call("database", "finalize", 200, () -> example("database-finalize-backup")));
        calls.put("database-finalize-backup-failed", new Call("database", "finalize", 200, () -> example("database-finalize-backup-failed")));
        calls.put("database-finalize-done", new Call("database", "finalize", 200, () -> example("database-finalize-done")));
        calls.put("database-finalize-captured", new Call("database", "finalize", 200, () -> captured("v1.5.14-database-finalize-drain")));
        calls.put("database-finalize-backingup-captured", new Call("database", "finalize", 200,
                () -> captured("v1.5.14-metahook-database-finalize-backingup")));
        calls.put("bluegreen-sync", new Call("bluegreen", "sync", 200, () -> Fixtures.bytes("metacontroller/01-composite-sync-v1.request.json")));
        calls.put("catset-finalize", new Call("catset", "finalize", 200, () -> Fixtures.bytes("metacontroller/02-composite-finalize-v1.request.json")));
        calls.put("service-per-pod-sync", new Call("service-per-pod", "sync", 200, () -> Fixtures.bytes("metacontroller/03-decorator-sync-v1.request.json")));
        calls.put("service-per-pod-sync-shuffled", new Call("service-per-pod", "sync", 200,
                () -> shuffled(Fixtures.bytes("metacontroller/03-decorator-sync-v1.request.json"), 5)));
        calls.put("service-per-pod-finalize", new Call("service-per-pod", "finalize", 200, () -> edited(
                Fixtures.bytes("metacontroller/03-decorator-sync-v1.request.json"), request -> {
                    request.put("finalizing", true);
                    request.withObjectProperty("object").withObjectProperty("metadata").withObjectProperty("annotations").remove("service-per-pod-label");
                })));
        calls.put("service-per-pod-sync-composite-body", new Call("service-per-pod", "sync", 400, () -> example("webapp-sync")));
        calls.put("configmappropagation-customize", new Call("configmappropagation", "customize", 200, () -> {
            ObjectNode request = Json.object();
            request.set("controller", StoredObjects.manifest("examples/configmappropagation/controller.yaml"));
            request.set("parent", StoredObjects.parent("examples/configmappropagation/configmappropagation.yaml",
                    "0c4d6e2a-5b1f-4e8a-9d3c-7f2b1a0e9d88", 1, null));
            return CanonicalJson.bytes(request);
        }));
        calls.put("configmappropagation-customize-no-parent", new Call("configmappropagation", "customize", 400,
                () -> "{\"controller\":{}}".getBytes(StandardCharsets.UTF_8)));
        return calls;
    }

    private static byte[] example(String name) {
        try {
            return Files.readAllBytes(Path.of("examples/requests/" + name + ".json"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] captured(String name) {
        return Fixtures.bytes("captured/" + name + ".request.json");
    }

    private static byte[] shuffled(byte[] request, long seed) {
        return Checker.shuffle(Json.parse(request), new Random(seed)).toString().getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] pretty(byte[] request) {
        try {
            return Json.mapper().writerWithDefaultPrettyPrinter().writeValueAsBytes(Json.parse(request));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] edited(byte[] request, Consumer<ObjectNode> edit) {
        ObjectNode tree = (ObjectNode) Json.parse(request);
        edit.accept(tree);
        return tree.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** The request with {@code count} more observed Deployments under old names, which the controller deletes. */
    private static byte[] withLeftovers(byte[] request, int count) {
        return edited(request, tree -> {
            ObjectNode deployments = (ObjectNode) tree.at("/children/Deployment.apps~1v1");
            JsonNode template = deployments.get("hello");
            for (int i = 0; i < count; i++) {
                ObjectNode leftover = template.deepCopy();
                String name = "hello-old-" + i;
                ((ObjectNode) leftover.get("metadata")).put("name", name).put("uid", String.format("00000000-0000-4000-8000-%012d", i));
                deployments.set(name, leftover);
            }
        });
    }

    private static byte[] recorded(String file) throws IOException {
        try (InputStream in = AnswerBytesTest.class.getResourceAsStream("/answers/" + file)) {
            if (in == null) {
                throw new IllegalStateException("no recorded answer " + file + "; record with -Danswers.record=true");
            }
            return in.readAllBytes();
        }
    }
}
