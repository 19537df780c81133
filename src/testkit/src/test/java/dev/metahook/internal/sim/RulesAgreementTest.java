package dev.metahook.internal.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.api.CompositeController;
import dev.metahook.api.Context;
import dev.metahook.api.Controllers;
import dev.metahook.api.Customizer;
import dev.metahook.api.RelatedRule;
import dev.metahook.api.Result;
import dev.metahook.internal.contract.Breach;
import dev.metahook.internal.engine.HookAnswer;
import dev.metahook.internal.engine.HookEngine;
import dev.metahook.testing.Requests;
import dev.metahook.testing.TestServer;
import dev.metahook.internal.wire.CanonicalJson;
import dev.metahook.internal.wire.Json;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The server and {@code check} judge an answer by the same rules: each row's answer is what a
 * controller returns to the real engine (which answers or refuses it) and what a hook answers to
 * {@code check}'s inspection of one call, and both must name the same rules, none for a valid answer.
 * A valid answer the server sends is clean for {@code check} too.
 */
class RulesAgreementTest {
    private static final String SELECTOR = "{\"matchLabels\":{\"app\":\"widget\"}}";

    static Stream<Row> rows() {
        return Stream.of(
                composite("a matching child", "[" + configMap("hello", "{\"app\":\"widget\"}") + "]"),
                composite("a child without kind", "[{\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"x\"}}]", "missing-kind"),
                composite("a child without apiVersion", "[{\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"x\",\"labels\":{\"app\":\"widget\"}}}]",
                        "missing-apiVersion"),
                composite("a child without name", "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"labels\":{\"app\":\"widget\"}}}]",
                        "missing-name"),
                composite("an undeclared type", "[{\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"metadata\":{\"name\":\"s\",\"labels\":{\"app\":\"widget\"}}}]",
                        "undeclared"),
                composite("an undeclared version", "[{\"apiVersion\":\"v2\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"c\",\"labels\":{\"app\":\"widget\"}}}]",
                        "undeclared"),
                composite("another namespace", "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"c\",\"namespace\":\"kube-system\","
                        + "\"labels\":{\"app\":\"widget\"}}}]", "namespace"),
                composite("a child's status", "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"c\",\"labels\":{\"app\":\"widget\"}},"
                        + "\"status\":{\"phase\":\"Ready\"}}]", "server-field"),
                composite("a child's uid", "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"c\",\"uid\":\"u\","
                        + "\"labels\":{\"app\":\"widget\"}}}]", "server-field"),
                composite("labels that miss the selector", "[" + configMap("c", "{\"app\":\"other\"}") + "]", "selector"),
                composite("a child twice", "[" + configMap("c", "{\"app\":\"widget\"}") + "," + configMap("c", "{\"app\":\"widget\"}") + "]",
                        "duplicate"),
                composite("a null field", "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"c\",\"labels\":{\"app\":\"widget\"}},"
                        + "\"data\":null}]", "null-value"),
                composite("a null list item", "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"c\",\"labels\":{\"app\":\"widget\"},"
                        + "\"finalizers\":[null]}}]", "null-value"),
                new Row("a parent without selector", withoutSelector(syncRequest(false)),
                        "[" + configMap("c", "{\"app\":\"widget\"}") + "]", Set.of("selector")),
                new Row("a parent with an empty selector", withSelector(syncRequest(false), "{}"),
                        "[" + configMap("c", "{\"app\":\"widget\"}") + "]", Set.of("selector")),
                new Row("a parent without selector and no children", withoutSelector(syncRequest(false)), "[]", Set.of()),
                new Row("another parent's controller-uid", syncRequest(true), "[" + configMap("c", "{\"controller-uid\":\"other\"}") + "]",
                        Set.of("selector")),
                new Row("no controller-uid with generateSelector", syncRequest(true), "[" + configMap("c", "{}") + "]", Set.of()),
                new Row("a related object written", withRelated(syncRequest(false)), "[" + configMap("source", "{\"app\":\"widget\"}") + "]",
                        Set.of("writes-related")),
                decorator("an attachment with any labels", "[" + configMap("a", "{\"any\":\"label\"}") + "]"),
                decorator("an attachment without kind", "[{\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"x\"}}]", "missing-kind"),
                decorator("an attachment in another namespace", "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"c\","
                        + "\"namespace\":\"kube-system\"}}]", "namespace"),
                decorator("an undeclared attachment", "[{\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"metadata\":{\"name\":\"s\"}}]", "undeclared"),
                customize("a rule by name", "[{\"apiVersion\":\"v1\",\"resource\":\"configmaps\",\"names\":[\"a\"]}]"),
                customize("names with a labelSelector", "[{\"apiVersion\":\"v1\",\"resource\":\"configmaps\",\"names\":[\"a\"],"
                        + "\"labelSelector\":{\"matchLabels\":{\"x\":\"y\"}}}]", "related-rule"),
                customize("namespace with a namespaceSelector", "[{\"apiVersion\":\"v1\",\"resource\":\"configmaps\",\"namespace\":\"default\","
                        + "\"namespaceSelector\":{\"matchLabels\":{\"x\":\"y\"}}}]", "related-rule"),
                customize("a namespaceSelector from a v1 hook of a namespaced parent", "[{\"apiVersion\":\"v1\",\"resource\":\"configmaps\","
                        + "\"namespaceSelector\":{\"matchLabels\":{\"x\":\"y\"}}}]", "related-rule"),
                customize("another namespace from a v1 hook of a namespaced parent", "[{\"apiVersion\":\"v1\",\"resource\":\"configmaps\","
                        + "\"namespace\":\"other\",\"names\":[\"a\"]}]", "related-rule"),
                customize("every namespace from a v1 hook", "[{\"apiVersion\":\"v1\",\"resource\":\"configmaps\",\"namespace\":\"*\","
                        + "\"names\":[\"a\"]}]"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void serverAndCheckNameTheSameRules(Row row) {
        String name = row.name();
        HookAnswer served = serve(row);
        Set<String> refused = new TreeSet<>();
        if (served.status() != 200) {
            JsonNode problem = Json.parse(served.body());
            assertEquals("urn:metahook:problem:response-refused", problem.path("type").asText(), problem::toString);
            problem.path("violations").forEach(violation -> refused.add(violation.asText().split(": ", 2)[0]));
            assertTrue(problem.path("detail").asText().contains(refused.iterator().next() + ": "), problem::toString);
        }
        assertEquals(row.rules(), refused, "the server's rules for " + name);
        assertEquals(row.rules(), ruleNames(inspect(row, row.answer().getBytes(StandardCharsets.UTF_8))), "check's rules for " + name);
        if (served.status() == 200) {
            assertEquals(Set.of(), ruleNames(inspect(row, served.body())), "check's rules for the server's answer to " + name);
        }
    }

    /** The row's answer returned by a controller through the real engine. */
    private static HookAnswer serve(Row row) {
        Answering controller = new Answering(row);
        Controllers.Builder builder = Controllers.builder();
        if (row.decorator()) {
            builder.decorator("rows", GenericKubernetesResource.class, controller::sync);
        } else {
            builder.composite("rows", GenericKubernetesResource.class, controller);
        }
        return new HookEngine(builder.build(), TestServer.CLOCK).handle("rows", row.hook(), CanonicalJson.bytes(row.request()));
    }

    /** {@code check}'s inspection of one call whose hook answers these bytes. */
    private static List<Breach> inspect(Row row, byte[] answer) {
        ControllerSpec spec = ControllerSpec.read(row.request().path("controller"));
        HookClient hook = (name, body) -> new HookClient.Reply(200, Map.of(), name.equals(row.hook()) ? answer
                : "{\"children\":[]}".getBytes(StandardCharsets.UTF_8), Duration.ZERO, null);
        CompositeSimulator.HookCall call;
        if (row.hook().equals("customize")) {
            CompositeSimulator simulator = new CompositeSimulator(spec, new ObjectStore(TestServer.CLOCK), hook);
            simulator.call((ObjectNode) row.request().path("parent"));
            call = simulator.customize().history().get(0).call();
        } else {
            call = CompositeSimulator.HookCall.send(hook, spec, row.hook(), row.request());
        }
        assertEquals(row.hook(), call.hook());
        return CallInspection.inspect(call, Duration.ofSeconds(10));
    }

    private static Set<String> ruleNames(List<Breach> breaches) {
        Set<String> names = new TreeSet<>();
        breaches.forEach(breach -> names.add(breach.kind()));
        return names;
    }

    /** A controller whose answer is the row's: its children, attachments or related rules. */
    private static final ObjectMapper BUILT = new ObjectMapper();

    private record Answering(Row row) implements CompositeController<GenericKubernetesResource, Object>,
            Customizer<GenericKubernetesResource> {
        @Override
        public Result<Object> sync(GenericKubernetesResource parent, Context context) {
            List<HasMetadata> objects = new ArrayList<>();
            // A plain mapper: the rows hold what a controller's builders can make (a null in a list, which the
            // shared mapper refuses to read) for the guards to refuse.
            row.objects().forEach(object -> objects.add(BUILT.convertValue(object, GenericKubernetesResource.class)));
            return Result.<Object>of(objects).deletingUnlisted();
        }

        @Override
        public List<RelatedRule> customize(GenericKubernetesResource parent, Context context) {
            List<RelatedRule> rules = new ArrayList<>();
            row.objects().forEach(rule -> rules.add(Json.mapper().convertValue(rule, RelatedRule.class)));
            return rules;
        }
    }

    /**
     * One answer: what a hook would answer in JSON, from the request; {@code objects} are the children,
     * attachments or rules in it; {@code rules} the rules both sides must name.
     */
    record Row(String name, ObjectNode request, String objectsJson, Set<String> rules) {
        @Override
        public String toString() {
            return name;
        }

        boolean decorator() {
            return request.has("object");
        }

        String hook() {
            return objectsJson.contains("\"resource\"") ? "customize" : "sync";
        }

        List<JsonNode> objects() {
            List<JsonNode> objects = new ArrayList<>();
            Json.parse(objectsJson.getBytes(StandardCharsets.UTF_8)).forEach(objects::add);
            return objects;
        }

        String answer() {
            String field = hook().equals("customize") ? "relatedResources" : decorator() ? "attachments" : "children";
            return "{\"" + field + "\":" + objectsJson + "}";
        }
    }

    private static Row composite(String name, String children, String... rules) {
        return new Row(name, syncRequest(false), children, Set.of(rules));
    }

    private static Row decorator(String name, String attachments, String... rules) {
        ObjectNode controller = Json.object();
        controller.put("apiVersion", "metacontroller.k8s.io/v1alpha1").put("kind", "DecoratorController");
        controller.putObject("metadata").put("name", "decorator");
        ObjectNode spec = controller.putObject("spec");
        spec.putArray("resources").addObject().put("apiVersion", "test.metahook.dev/v1").put("resource", "widgets");
        spec.putArray("attachments").addObject().put("apiVersion", "v1").put("resource", "configmaps");
        spec.putObject("hooks").putObject("sync").putObject("webhook").put("url", "http://metahook/rows/sync");
        ObjectNode request = Json.object();
        request.set("controller", controller);
        request.set("object", Requests.widget("hello", 1, "hi"));
        request.putObject("attachments").putObject("ConfigMap.v1");
        request.putObject("related");
        request.put("finalizing", false);
        return new Row(name, request, attachments, Set.of(rules));
    }

    private static Row customize(String name, String rules, String... breaches) {
        ObjectNode request = syncRequest(false);
        ((ObjectNode) request.path("controller").path("spec").path("hooks")).putObject("customize").put("version", "v1")
                .putObject("webhook").put("url", "http://metahook/rows/customize");
        return new Row(name, request, rules, Set.of(breaches));
    }

    /** A Widget's sync request, its selector {@code app=widget}, no observed children. */
    private static ObjectNode syncRequest(boolean generateSelector) {
        ObjectNode request = Requests.sync(Requests.widget("hello", 1, "hi"), List.of(), false);
        request.set("controller", Requests.controller(generateSelector));
        return withSelector(request, SELECTOR);
    }

    private static ObjectNode withSelector(ObjectNode request, String selector) {
        request.withObjectProperty("parent").withObjectProperty("spec").set("selector", Json.parse(selector.getBytes(StandardCharsets.UTF_8)));
        return request;
    }

    private static ObjectNode withoutSelector(ObjectNode request) {
        request.withObjectProperty("parent").withObjectProperty("spec").remove("selector");
        return request;
    }

    /** A ConfigMap {@code source} in the request's related objects. */
    private static ObjectNode withRelated(ObjectNode request) {
        ObjectNode source = Json.object();
        source.put("apiVersion", "v1").put("kind", "ConfigMap");
        source.putObject("metadata").put("name", "source").put("namespace", "default");
        request.withObjectProperty("related").withObjectProperty("ConfigMap.v1").set("source", source);
        return request;
    }

    private static String configMap(String name, String labels) {
        return "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"" + name + "\",\"labels\":" + labels + "}}";
    }
}
