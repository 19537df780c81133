package dev.metahook.examples.configmappropagation;

import static dev.metahook.examples.OriginalAnswers.assertChildren;
import static dev.metahook.examples.OriginalAnswers.assertStalledKeepingEverything;
import static dev.metahook.examples.OriginalAnswers.assertStatus;
import static dev.metahook.examples.OriginalAnswers.body;
import static dev.metahook.examples.OriginalAnswers.json;
import static dev.metahook.examples.OriginalAnswers.object;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.api.CompositeController;
import dev.metahook.api.Context;
import dev.metahook.api.Controllers;
import dev.metahook.api.Customizer;
import dev.metahook.api.RelatedRule;
import dev.metahook.api.Result;
import dev.metahook.examples.OriginalAnswers;
import dev.metahook.testkit.Answer;
import dev.metahook.testkit.HookCall;
import dev.metahook.testkit.HookTester;
import dev.metahook.internal.wire.Json;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The configmappropagation port answers a spec of the original's shape (a list of target
 * namespaces) as Metacontroller's {@code examples/configmappropagation/manifest/sync.py} does. Every
 * expectation below is worked out from that source: customize asks for the ConfigMap
 * {@code sourceNamespace/sourceName} by namespace and name; sync answers, when that ConfigMap is among
 * the related objects, a ConfigMap per entry of {@code targetNamespaces}, in its order, with the
 * source's name and {@code data} (and nothing else), and none when it is gone; the status is
 * {@code expected_copies} (the list's length) and {@code actual_copies} (ConfigMaps observed). The
 * port adds conditions to the status; they are not asserted here. Where the port differs on purpose
 * (docs/examples.md), the test says so.
 */
class ConfigMapPropagationOriginalTest {
    private static final String UID = "0c4d6e2a-5b1f-4e8a-9d3c-7f2b1a0e9d88";
    private static final Recorded CONTROLLER = new Recorded();
    private static final Controllers CONTROLLERS = Controllers.builder()
            .composite("configmappropagation", ConfigMapPropagation.class, CONTROLLER).build();
    private static final String MANIFEST = "examples/configmappropagation/controller.yaml";
    private static final HookTester V1 = HookTester.of(CONTROLLERS, "configmappropagation", Path.of(MANIFEST));
    private static final HookTester V2 = OriginalAnswers.v2(CONTROLLERS, "configmappropagation", MANIFEST);
    private static final JsonNode DATA = json("{'some':'value','other':'value'}");

    /** The port, remembering the copies of the result it returned last, in its order. */
    static final class Recorded implements CompositeController<ConfigMapPropagation, ConfigMapPropagation.Status>,
            Customizer<ConfigMapPropagation> {
        private final ConfigMapPropagationController controller = new ConfigMapPropagationController();
        private volatile List<String> copies = List.of();

        @Override
        public Result<ConfigMapPropagation.Status> sync(ConfigMapPropagation propagation, Context context) {
            Result<ConfigMapPropagation.Status> result = controller.sync(propagation, context);
            copies = result.objects().stream().map(copy -> copy.getMetadata().getNamespace()).toList();
            return result;
        }

        @Override
        public List<RelatedRule> customize(ConfigMapPropagation propagation, Context context) {
            return controller.customize(propagation, context);
        }
    }

    // customize: one rule, configmaps in sourceNamespace named sourceName.
    @Test
    void customizeAsksForTheSourceByNamespaceAndName() {
        Answer answer = V1.customize(object(parent("one", "two", "three"))).call();
        assertEquals(json("[{'apiVersion':'v1','resource':'configmaps','namespace':'original','names':['settings']}]"),
                body(answer).get("relatedResources"));
    }

    // The same rule when the hooks are v2.
    @Test
    void customizeUnderV2IsAlike() {
        Answer answer = V2.customize(object(parent("one"))).call();
        assertEquals(json("[{'apiVersion':'v1','resource':'configmaps','namespace':'original','names':['settings']}]"),
                body(answer).get("relatedResources"));
    }

    // The source is there, nothing copied yet: a copy per listed namespace; expected 3, actual 0.
    @Test
    void aCopyInEveryListedNamespace() {
        Answer answer = sync(V1, parent("one", "two", "three"), source(DATA));
        assertChildren(List.of(copy("one", DATA), copy("two", DATA), copy("three", DATA)), answer, null);
        assertStatus(Map.of("expected_copies", number(3), "actual_copies", number(0)), answer);
    }

    // The related key is "original/settings" for a cluster-scoped parent in v1 and in v2 alike: the same answer.
    @Test
    void v2KeysGetTheSameCopies() {
        Answer answer = sync(V2, parent("one", "two", "three"), source(DATA), observed("one", DATA));
        assertChildren(List.of(copy("one", DATA), copy("two", DATA), copy("three", DATA)), answer, null);
        assertStatus(Map.of("expected_copies", number(3), "actual_copies", number(1)), answer);
    }

    // The copies come in the list's order (the original's list comprehension over targetNamespaces).
    @Test
    void copiesAreAnsweredInTheListsOrder() {
        sync(V1, parent("three", "one", "two"), source(DATA));
        assertEquals(List.of("three", "one", "two"), CONTROLLER.copies);
    }

    // One copy made so far: all three answered, actual_copies 1.
    @Test
    void theMissingCopiesAreMade() {
        Answer answer = sync(V1, parent("one", "two", "three"), source(DATA), observed("two", DATA));
        assertChildren(List.of(copy("one", DATA), copy("two", DATA), copy("three", DATA)), answer, null);
        assertStatus(Map.of("expected_copies", number(3), "actual_copies", number(1)), answer);
    }

    // A namespace taken off the list: its copy is not answered (so deleted); actual counts what is observed.
    @Test
    void aNamespaceTakenOffTheListLosesItsCopy() {
        Answer answer = sync(V1, parent("one"), source(DATA), observed("one", DATA), observed("two", DATA), observed("three", DATA));
        assertChildren(List.of(copy("one", DATA)), answer, null);
        assertStatus(Map.of("expected_copies", number(1), "actual_copies", number(3)), answer);
    }

    // The source's data changed: every copy carries the new data.
    @Test
    void newDataReachesEveryCopy() {
        JsonNode changed = json("{'some':'other value'}");
        Answer answer = sync(V1, parent("one", "two"), source(changed), observed("one", DATA), observed("two", DATA));
        assertChildren(List.of(copy("one", changed), copy("two", changed)), answer, null);
    }

    // The source is gone (no related ConfigMap): children [] so every copy goes; expected still counts the list.
    @Test
    void aSourceThatIsGoneTakesEveryCopy() {
        Answer answer = sync(V1, parent("one", "two", "three"), null, observed("one", DATA), observed("two", DATA));
        assertChildren(List.of(), answer, null);
        assertStatus(Map.of("expected_copies", number(3), "actual_copies", number(2)), answer);
    }

    // binaryData: the original copies `data` and nothing else.
    @Test
    void onlyDataIsCopied() {
        ObjectNode source = source(DATA);
        source.putObject("binaryData").put("logo.png", "iVBORw0KGgo=");
        Answer answer = sync(V1, parent("one"), source);
        assertChildren(List.of(copy("one", DATA)), answer, null);
    }

    // Data is copied byte for byte: line breaks, markup characters, other scripts, empty values.
    @Test
    void dataIsCopiedAsItIs() {
        JsonNode odd = json("{'app.properties':'a=1\\nb=<2> & \\u00e9t\\u00e9\\n','empty':''}");
        Answer answer = sync(V1, parent("one"), source(odd));
        assertChildren(List.of(copy("one", odd)), answer, null);
    }

    // An empty list: no copies, expected 0.
    @Test
    void anEmptyListMakesNoCopies() {
        Answer answer = sync(V1, parent(), source(DATA));
        assertChildren(List.of(), answer, null);
        assertStatus(Map.of("expected_copies", number(0), "actual_copies", number(0)), answer);
    }

    // Deliberate difference: a namespace listed twice. The original answers the same ConfigMap twice (Metacontroller
    // keeps one) and counts 2 expected copies, which actual_copies can never reach; the port answers it once and
    // counts 1.
    @Test
    @Tag("differs")
    void aNamespaceListedTwiceIsOneCopy() {
        Answer answer = sync(V1, parent("one", "one"), source(DATA));
        assertChildren(List.of(copy("one", DATA)), answer, null);
        assertStatus(Map.of("expected_copies", number(1)), answer);
    }

    // Deliberate difference: the source's own namespace listed. The original answers the source itself as a child
    // (which Metacontroller cannot take over, as it is not the parent's); the port leaves it out.
    @Test
    @Tag("differs")
    void theSourcesOwnNamespaceIsNeverACopy() {
        Answer answer = sync(V1, parent("original", "one"), source(DATA));
        assertChildren(List.of(copy("one", DATA)), answer, null);
        assertStatus(Map.of("expected_copies", number(1)), answer);
    }

    // Deliberate difference: a source without data (the API server leaves an empty `data` out). The original fails
    // on original_configmap['data'] (KeyError, no answer); the port copies it as it is, empty.
    @Test
    @Tag("differs")
    void aSourceWithoutDataIsCopiedEmpty() {
        ObjectNode source = source(DATA);
        source.remove("data");
        Answer answer = sync(V1, parent("one"), source);
        ObjectNode empty = copy("one", DATA);
        empty.remove("data");
        assertChildren(List.of(empty), answer, null);
    }

    // Odd spec: no targetNamespaces. The original fails (KeyError) and nothing changes; the port keeps every copy
    // as last applied and stalls.
    @Test
    @Tag("differs")
    void aSpecWithoutTargetNamespacesChangesNothing() {
        ObjectNode parent = parent();
        parent.withObjectProperty("spec").remove("targetNamespaces");
        Answer answer = sync(V1, parent, source(DATA), observed("one", DATA));
        assertStalledKeepingEverything(List.of(lastApplied("one", DATA)), "InvalidSpec", answer, null);
    }

    // Odd spec: no sourceName. The original fails in customize and sync alike; the port stalls, keeping the copies.
    @Test
    void aSpecWithoutASourceNameChangesNothing() {
        ObjectNode parent = parent("one");
        parent.withObjectProperty("spec").remove("sourceName");
        Answer answer = sync(V1, parent, source(DATA), observed("one", DATA));
        assertStalledKeepingEverything(List.of(lastApplied("one", DATA)), "InvalidSpec", answer, null);
    }

    private static Answer sync(HookTester tester, ObjectNode parent, ObjectNode source, ObjectNode... observed) {
        HookCall call = tester.sync(object(parent));
        if (source != null) {
            call.related(object(source));
        }
        for (ObjectNode child : observed) {
            call.observing(object(child));
        }
        return call.call();
    }

    /** The original's spec: the source and the namespaces listed. */
    private static ObjectNode parent(String... namespaces) {
        ObjectNode parent = OriginalAnswers.manifest("examples/configmappropagation/configmappropagation.yaml");
        parent.withObjectProperty("metadata").put("uid", UID);
        ObjectNode spec = parent.withObjectProperty("spec");
        spec.remove("targetNamespaceSelector");
        ArrayNode list = spec.putArray("targetNamespaces");
        for (String namespace : namespaces) {
            list.add(namespace);
        }
        return parent;
    }

    private static ObjectNode source(JsonNode data) {
        ObjectNode source = Json.object().put("apiVersion", "v1").put("kind", "ConfigMap");
        source.putObject("metadata").put("name", "settings").put("namespace", "original");
        source.set("data", data.deepCopy());
        return source;
    }

    /** new_configmap: the source's name in the target namespace, and its data. */
    private static ObjectNode copy(String namespace, JsonNode data) {
        ObjectNode copy = Json.object().put("apiVersion", "v1").put("kind", "ConfigMap");
        copy.putObject("metadata").put("name", "settings").put("namespace", namespace);
        copy.set("data", data.deepCopy());
        return copy;
    }

    /** A copy as Metacontroller applied it: with the controller-uid label of the generated selector. */
    private static ObjectNode lastApplied(String namespace, JsonNode data) {
        ObjectNode copy = copy(namespace, data);
        copy.withObjectProperty("metadata").putObject("labels").put("controller-uid", UID);
        return copy;
    }

    private static ObjectNode observed(String namespace, JsonNode data) {
        return lastApplied(namespace, data);
    }

    private static JsonNode number(int value) {
        return Json.tree(value);
    }
}
