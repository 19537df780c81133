package dev.metahook.internal.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ContainerNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.api.Controllers;
import dev.metahook.api.Result;
import dev.metahook.testing.Fixtures;
import dev.metahook.testing.Requests;
import dev.metahook.testing.TestServer;
import dev.metahook.testing.Widget;
import dev.metahook.testing.WidgetController;
import dev.metahook.internal.wire.Json;
import dev.metahook.internal.wire.ResponseCheck;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.regex.Pattern;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Mutated Metacontroller requests (bytes flipped, bodies cut short, fields replaced by other types,
 * huge strings and numbers, deep nesting): every answer is a well-formed 200 or a problem document,
 * a 500 only when a guard refuses, never slower than a second, and the server keeps answering right.
 */
class FuzzTest {
    private static final Duration LIMIT = Duration.ofSeconds(30);
    private static final Set<Integer> CLIENT_ERRORS = Set.of(400, 404, 413, 429);
    private static TestServer server;
    private static HttpClient client;

    private record Target(String path, byte[] body) {
    }

    private static final List<Target> TARGETS = new ArrayList<>();

    @BeforeContainer
    static void start() {
        server = TestServer.start(Controllers.builder()
                .composite("widget", Widget.class, new WidgetController())
                .composite("keep", GenericKubernetesResource.class, (p, c) -> Result.keepingObserved().withStatus(Map.of("kept", c.children().size())))
                .decorator("decorate", GenericKubernetesResource.class, (o, a) -> Result.keepingObserved().withLabel("seen", "yes"))
                .build());
        client = HttpClient.newBuilder().connectTimeout(LIMIT).build();
        ObjectNode observed = Requests.sync(Requests.widget("hello", 3, "hi"),
                List.of(Requests.observedConfigMap("hello", 3, "hi"), Requests.observedConfigMap("old", 1, "x")), false);
        TARGETS.add(new Target("/widget/sync", Requests.bytes(observed)));
        TARGETS.add(new Target("/widget/finalize", Requests.bytes(Requests.sync(Requests.widget("hello", 3, "hi"),
                List.of(Requests.observedConfigMap("hello", 3, "hi")), true))));
        TARGETS.add(new Target("/keep/sync", Fixtures.bytes("metacontroller/01-composite-sync-v1.request.json")));
        TARGETS.add(new Target("/keep/sync", Fixtures.bytes("captured/v1.5.14-webapp-sync-observed.request.json")));
        TARGETS.add(new Target("/decorate/sync", Fixtures.bytes("metacontroller/03-decorator-sync-v1.request.json")));
        TARGETS.add(new Target("/widget/customize", Requests.bytes(Requests.customize(Requests.controller(true), Requests.widget("hello", 3, "hi")))));
    }

    @AfterContainer
    static void aGoodRequestStillGetsItsRightAnswer() throws Exception {
        HttpResponse<byte[]> answer = post(TARGETS.get(0));
        assertEquals(200, answer.statusCode());
        assertEquals(List.of("hello"), Json.parse(answer.body()).findValuesAsText("name"));
        server.close();
    }

    @Property(tries = 400)
    void mutatedBytesGetAWellFormedAnswer(@ForAll long seed) throws Exception {
        Random random = new Random(seed);
        Target target = TARGETS.get(random.nextInt(TARGETS.size()));
        byte[] body = target.body().clone();
        if (random.nextBoolean()) {
            body = Arrays.copyOf(body, random.nextInt(body.length));
        }
        for (int i = random.nextInt(4); i >= 0 && body.length > 0; i--) {
            body[random.nextInt(body.length)] = (byte) random.nextInt(256);
        }
        check(new Target(target.path(), body));
    }

    @Property(tries = 400)
    void mutatedFieldsGetAWellFormedAnswer(@ForAll long seed) throws Exception {
        Random random = new Random(seed);
        Target target = TARGETS.get(random.nextInt(TARGETS.size()));
        JsonNode tree = Json.parse(target.body());
        for (int i = random.nextInt(3); i >= 0; i--) {
            tree = replaceSomewhere(tree, random);
        }
        check(new Target(target.path(), withDeepNesting(Json.mapper().writeValueAsString(tree))));
    }

    private static void check(Target target) throws Exception {
        // Answered at all, within the client's generous deadline (a hang fails the send); how fast is the benchmark's business.
        HttpResponse<byte[]> answer = post(target);
        int status = answer.statusCode();
        String type = answer.headers().firstValue("Content-Type").orElse("");
        if (status == 200) {
            JsonNode response = Json.parse(answer.body());
            List<String> problems = target.path().endsWith("customize") ? ResponseCheck.customize(response, true)
                    : target.path().startsWith("/decorate") ? ResponseCheck.decorator(response, true)
                    : ResponseCheck.composite(response, true);
            assertEquals(List.of(), problems);
            return;
        }
        assertTrue(type.startsWith("application/problem+json"), "status " + status + " with " + type);
        JsonNode problem = Json.parse(answer.body());
        assertEquals(status, problem.get("status").intValue());
        boolean refusedByGuard = status == 500 && problem.get("type").asText().endsWith("response-refused");
        assertTrue(CLIENT_ERRORS.contains(status) || refusedByGuard, "unexpected " + status + ": " + problem);
    }

    private static HttpResponse<byte[]> post(Target target) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(server.url(target.path()))).timeout(LIMIT)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofByteArray(target.body())).build();
        return client.send(request, HttpResponse.BodyHandlers.ofByteArray());
    }

    /** Replaces one randomly chosen value in the tree with a value of a random other shape. */
    private static JsonNode replaceSomewhere(JsonNode root, Random random) {
        List<ContainerNode<?>> containers = new ArrayList<>();
        collect(root, containers);
        ContainerNode<?> container = containers.get(random.nextInt(containers.size()));
        JsonNode replacement = randomValue(random);
        if (container instanceof ObjectNode object && object.size() > 0) {
            List<String> names = new ArrayList<>();
            object.fieldNames().forEachRemaining(names::add);
            String name = names.get(random.nextInt(names.size()));
            if (random.nextInt(5) == 0) {
                object.remove(name);
            } else {
                object.set(name, replacement);
            }
        } else if (container instanceof ArrayNode array && array.size() > 0) {
            array.set(random.nextInt(array.size()), replacement);
        } else if (container == root) {
            return replacement;
        }
        return root;
    }

    private static void collect(JsonNode node, List<ContainerNode<?>> out) {
        if (node instanceof ContainerNode<?> container) {
            out.add(container);
            node.forEach(child -> collect(child, out));
        }
    }

    private static JsonNode randomValue(Random random) {
        return switch (random.nextInt(11)) {
            case 0 -> Json.mapper().getNodeFactory().nullNode();
            case 1 -> Json.mapper().getNodeFactory().textNode("x".repeat(random.nextInt(3) == 0 ? 2_000_000 : 3));
            case 2 -> Json.mapper().getNodeFactory().numberNode(new BigInteger("9".repeat(900)));
            case 3 -> Json.mapper().getNodeFactory().numberNode(new BigDecimal("1e99999"));
            case 4 -> Json.mapper().getNodeFactory().numberNode(-1.5);
            case 5 -> Json.mapper().getNodeFactory().numberNode(3);
            case 6 -> Json.mapper().getNodeFactory().booleanNode(random.nextBoolean());
            case 7 -> Json.mapper().createArrayNode().add(1).add("a");
            case 8 -> Json.object().put("unexpected", true);
            case 9 -> Json.mapper().getNodeFactory().textNode("@@DEEP" + random.nextInt(3000) + "@@");
            default -> Json.mapper().getNodeFactory().textNode("");
        };
    }

    /** Deep nesting is written as text: Jackson itself refuses to write more than 1000 levels. */
    private static byte[] withDeepNesting(String json) {
        var matcher = Pattern.compile("\"@@DEEP(\\d+)@@\"").matcher(json);
        StringBuilder out = new StringBuilder();
        while (matcher.find()) {
            int depth = Integer.parseInt(matcher.group(1));
            matcher.appendReplacement(out, "[".repeat(depth) + "{}" + "]".repeat(depth));
        }
        matcher.appendTail(out);
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }

}
