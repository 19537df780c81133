package dev.metahook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.metahook.internal.wire.Json;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * {@code render} and {@code check} with {@code --related} on a CompositeController whose customize
 * hook asks for related objects: a scripted foreign hook in the manner of Metacontroller's
 * configmappropagation example (copy a source ConfigMap into every namespace a selector picks).
 */
class RelatedCommandsTest {
    private static final String DIR = "src/service/src/test/resources/cli/configmap-propagation/";
    private static final String EXAMPLES = "examples/foreign-hooks/";

    /** The well-behaved hook: customize asks for the source and the namespaces; sync copies the one into the others. */
    static ObjectNode propagation(JsonNode request) {
        JsonNode spec = request.at("/parent/spec");
        ObjectNode response = Json.object();
        if (!request.has("children")) {
            ArrayNode rules = response.putArray("relatedResources");
            rules.addObject().put("apiVersion", "v1").put("resource", "configmaps").put("namespace", spec.path("sourceNamespace").asText())
                    .putArray("names").add(spec.path("sourceName").asText());
            rules.addObject().put("apiVersion", "v1").put("resource", "namespaces").set("labelSelector", spec.path("namespaceSelector"));
            return response;
        }
        JsonNode source = request.at("/related/ConfigMap.v1").path(spec.path("sourceNamespace").asText() + "/" + spec.path("sourceName").asText());
        ArrayNode children = response.putArray("children");
        List<String> namespaces = new ArrayList<>();
        request.at("/related/Namespace.v1").fieldNames().forEachRemaining(namespaces::add);
        namespaces.sort(null);
        if (!source.isMissingNode()) {
            for (String namespace : namespaces) {
                ObjectNode copy = children.addObject().put("apiVersion", "v1").put("kind", "ConfigMap");
                copy.putObject("metadata").put("name", spec.path("sourceName").asText()).put("namespace", namespace);
                copy.set("data", source.path("data"));
            }
        }
        response.putObject("status").put("expectedCopies", children.size()).put("actualCopies", request.at("/children/ConfigMap.v1").size());
        return response;
    }

    /**
     * A hook in the manner of Metacontroller's configmap-list-v2 example (v2 hooks): customize asks for
     * the ConfigMaps with the parent's {@code sourceLabels}, in {@code sourceNamespace} when it names one,
     * else in every namespace; sync lists their keys in one ConfigMap.
     */
    static ObjectNode configMapList(JsonNode request) {
        JsonNode parent = request.path("parent");
        ObjectNode response = Json.object();
        if (!request.has("children")) {
            ObjectNode rule = response.putArray("relatedResources").addObject().put("apiVersion", "v1").put("resource", "configmaps");
            rule.putObject("labelSelector").set("matchLabels", parent.at("/spec/sourceLabels"));
            if (parent.at("/spec/sourceNamespace").isTextual()) {
                rule.put("namespace", parent.at("/spec/sourceNamespace").asText());
            }
            return response;
        }
        List<String> keys = new ArrayList<>();
        request.at("/related/ConfigMap.v1").fieldNames().forEachRemaining(keys::add);
        keys.sort(null);
        ObjectNode list = response.putArray("children").addObject().put("apiVersion", "v1").put("kind", "ConfigMap");
        list.putObject("metadata").put("name", parent.at("/metadata/name").asText() + "-list")
                .put("namespace", parent.at("/metadata/namespace").asText());
        list.putObject("data").put("configmaps", String.join("\n", keys));
        response.putObject("status").put("count", keys.size());
        return response;
    }

    private static Result runWith(String controller, Function<JsonNode, ObjectNode> hook, boolean check, String... args) {
        try (ScriptedHook scripted = new ScriptedHook(request -> ScriptedHook.Answer.ok(hook.apply(request)))) {
            List<String> all = new ArrayList<>(List.of("--controller", controller, "--url", scripted.url()));
            all.addAll(List.of(args));
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            PrintStream stdout = new PrintStream(out, true, StandardCharsets.UTF_8);
            int exit = Main.exitCode(() -> check ? CheckCommand.run(all, Map.of(), stdout)
                    : RenderCommand.run(all, Map.of(), stdout, new PrintStream(err, true, StandardCharsets.UTF_8)));
            return new Result(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        }
    }

    /**
     * The configmap-list-v2 manner: a ConfigMapList parent (a custom resource, one object, though its
     * kind ends in List), a controller file that holds the CRD, the controller and the hook's Deployment
     * and Service, and a v2 rule without namespace that sees the ConfigMaps of every namespace.
     */
    @Test
    void aV2RuleWithoutNamespaceSeesTheConfigMapsOfEveryNamespace() throws Exception {
        String list = "src/service/src/test/resources/cli/configmap-list-v2/";
        Result rendered = runWith(list + "controller.yaml", RelatedCommandsTest::configMapList, false,
                "--parent", list + "list.yaml", "--related", list + "related.yaml");
        assertEquals(0, rendered.exit(), rendered.err());
        JsonNode answer = new YAMLMapper().readTree(rendered.out());
        assertEquals("shop/prices\nshop/stock", answer.at("/children/0/data/configmaps").asText(), rendered.out());
        Result checked = runWith(list + "controller.yaml", RelatedCommandsTest::configMapList, true,
                "--parent", list + "list.yaml", "--related", list + "related.yaml", "--passes", "8");
        assertEquals(0, checked.exit(), checked.out());
        assertTrue(checked.out().startsWith("check: clean ("), checked.out());
    }

    private record Result(int exit, String out, String err) {
        List<String> breaches() {
            return out.lines().filter(line -> line.startsWith("BREACH ")).toList();
        }
    }

    private static Result run(Function<JsonNode, ObjectNode> hook, boolean check, String... args) {
        return runWith(EXAMPLES + "configmap-propagation.yaml", hook, check, args);
    }

    private static void reports(Result result, String kind, String detail) {
        assertEquals(1, result.exit(), result.out());
        assertTrue(result.breaches().stream().anyMatch(line -> line.startsWith("BREACH " + kind + ":") && line.contains(detail)), result.out());
    }

    @Test
    void rendersACopyForEachSelectedNamespaceAndListsWhatWasSent() throws Exception {
        Result result = run(RelatedCommandsTest::propagation, false, "--parent", EXAMPLES + "propagation.yaml", "--related", EXAMPLES + "related.yaml");
        assertEquals(0, result.exit(), result.err());
        JsonNode answer = new YAMLMapper().readTree(result.out());
        assertEquals(List.of("team-a", "team-b"), answer.path("children").findValuesAsText("namespace"));
        assertEquals("eu-west-1", answer.at("/children/0/data/region").asText());
        assertEquals(Json.parse("{\"ConfigMap.v1\":[\"config/settings\"],\"Namespace.v1\":[\"team-a\",\"team-b\"]}"
                .getBytes(StandardCharsets.UTF_8)), answer.get("related"), "v1 keys of a cluster-scoped parent: namespace/name");
    }

    @Test
    void aHookThatFollowsItsRelatedObjectsIsClean() {
        Result result = run(RelatedCommandsTest::propagation, true, "--parent", EXAMPLES + "propagation.yaml", "--related", EXAMPLES + "related.yaml",
                "--passes", "8");
        assertEquals(0, result.exit(), result.out());
        assertTrue(result.out().startsWith("check: clean ("), result.out());
    }

    @Test
    void withoutRelatedObjectsTheRunIsNotClean() {
        Result result = run(RelatedCommandsTest::propagation, true, "--parent", EXAMPLES + "propagation.yaml", "--passes", "8");
        reports(result, "no-related", "v1 configmaps names [\"settings\"] in namespace config");
        reports(result, "no-related", "v1 namespaces labelSelector");
    }

    @Test
    void aSelectorThatMatchesNoneOfTheRelatedObjectsIsReported() {
        Result result = run(RelatedCommandsTest::propagation, true, "--parent", DIR + "propagation-nowhere.yaml",
                "--related", EXAMPLES + "related.yaml", "--passes", "8");
        reports(result, "no-related", "v1 namespaces labelSelector {\"matchLabels\":{\"propagate-settings\":\"never\"}}");
        assertEquals(1, result.breaches().size(), "the source ConfigMap was found: " + result.out());
    }

    @Test
    void reportsAHookThatIgnoresItsRelatedObjects() {
        reports(run(request -> {
            ObjectNode answer = propagation(request);
            if (request.has("children")) {
                answer.putArray("children");
                answer.putObject("status");
            }
            return answer;
        }, true, "--parent", EXAMPLES + "propagation.yaml", "--related", EXAMPLES + "related.yaml", "--passes", "8"),
                "ignores-related", "ConfigMap config/settings");
    }

    @Test
    void reportsAnAnswerThatDependsOnTheOrderOfRelatedObjects() {
        reports(run(request -> {
            ObjectNode answer = propagation(request);
            if (request.has("children")) {
                List<String> order = new ArrayList<>();
                request.at("/related/Namespace.v1").fieldNames().forEachRemaining(order::add);
                answer.withObjectProperty("status").put("first", order.isEmpty() ? "" : order.get(0));
            }
            return answer;
        }, true, "--parent", EXAMPLES + "propagation.yaml", "--related", EXAMPLES + "related.yaml", "--passes", "8"),
                "non-deterministic", "keys in another order");
    }

    @Test
    void aRelatedFileWithAnObjectTwiceIsAUsageError() throws Exception {
        Path twice = Files.createTempFile("related", ".yaml");
        Files.writeString(twice, Files.readString(Path.of(EXAMPLES + "related.yaml"))
                + "---\napiVersion: v1\nkind: Namespace\nmetadata: {name: team-a}\n");
        Result result = run(RelatedCommandsTest::propagation, false, "--parent", EXAMPLES + "propagation.yaml", "--related", twice.toString());
        assertEquals(2, result.exit());
        Files.delete(twice);
    }
}
