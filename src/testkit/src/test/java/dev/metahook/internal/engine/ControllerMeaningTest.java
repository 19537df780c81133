package dev.metahook.internal.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.api.Cleaner;
import dev.metahook.api.Cleanup;
import dev.metahook.api.CompositeController;
import dev.metahook.api.Conditions;
import dev.metahook.api.Context;
import dev.metahook.api.Controllers;
import dev.metahook.api.CustomResource;
import dev.metahook.api.Explicit;
import dev.metahook.api.RawStatusReader;
import dev.metahook.api.Result;
import dev.metahook.internal.sim.ThreeWayMerge;
import dev.metahook.testing.Requests;
import dev.metahook.testing.TestServer;
import dev.metahook.testing.Widget;
import dev.metahook.internal.wire.CanonicalJson;
import dev.metahook.internal.wire.Json;
import dev.metahook.internal.wire.LastAppliedConfiguration;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Version;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.LoggerFactory;

/**
 * What the controller meant reaches Metacontroller unchanged: children in the controller's order
 * (the order of a rolling update), a stored status that does not fit never dropped without a word,
 * an explicit empty list or map written and merged as one.
 */
class ControllerMeaningTest {
    /** Pods of a set, newest ordinal first, as a rolling update should take them: {@code w-11, w-10, ..., w-0}. */
    static final class HighestFirst implements CompositeController<Widget, Map<String, Object>> {
        @Override
        public Result<Map<String, Object>> sync(Widget widget, Context context) {
            List<HasMetadata> children = new ArrayList<>();
            for (int ordinal = widget.getSpec().size - 1; ordinal >= 0; ordinal--) {
                children.add(new ConfigMapBuilder().withNewMetadata().withName(widget.getMetadata().getName() + "-" + ordinal)
                        .endMetadata().addToData("ordinal", Integer.toString(ordinal)).build());
            }
            return Result.<Map<String, Object>>of(children).deletingUnlisted();
        }
    }

    /** A Widget whose status is typed: how far a finished piece of work got. */
    @Group("test.metahook.dev")
    @Version("v1")
    @Kind("Widget")
    public static class Tracked extends CustomResource<Widget.Spec, Tracked.Status> {
        public record Status(Integer completed, List<Condition> conditions) {
        }
    }

    /** Starts the work again whenever it sees no record of it: what a dropped status would make it do. */
    static class Tracker implements CompositeController<Tracked, Tracked.Status> {
        final AtomicReference<Tracked> seen = new AtomicReference<>();
        final AtomicReference<Map<String, Object>> raw = new AtomicReference<>();

        @Override
        public Result<Tracked.Status> sync(Tracked parent, Context context) {
            seen.set(parent);
            raw.set(context.rawStatus().orElse(null));
            int completed = parent.getStatus() == null || parent.getStatus().completed() == null ? 0 : parent.getStatus().completed();
            return Result.of(new ConfigMapBuilder().withNewMetadata().withName("work-" + completed).endMetadata().build())
                    .deletingUnlisted()
                    .withStatus(new Tracked.Status(completed, Conditions.from(parent, context.clock()).ready("Done", "done").list()));
        }
    }

    static final class RawTracker extends Tracker implements RawStatusReader {
    }

    /** Lets the parent go at once: what it would do, status unseen, for work it believes never started. */
    static final class Finisher extends Tracker implements Cleaner<Tracked, Tracked.Status> {
        @Override
        public Cleanup<Tracked.Status> cleanup(Tracked parent, Context context) {
            seen.set(parent);
            return Cleanup.done();
        }
    }

    private static final Tracker STRICT = new Tracker();
    private static final RawTracker RAW = new RawTracker();

    @RegisterExtension
    static final TestServer SERVER = TestServer.of(() -> Controllers.builder()
            .composite("pods", Widget.class, new HighestFirst())
            .composite("tracked", Tracked.class, STRICT)
            .composite("raw", Tracked.class, RAW)
            .composite("finisher", Tracked.class, new Finisher())
            .build());

    @Test
    void aRollingChildKindKeepsTheControllersOrderByteForByteOnEveryCall() {
        ObjectNode request = Requests.sync(Requests.widget("w", 12, "hi"), List.of(), false);
        ((ObjectNode) request.at("/controller/spec/childResources/0/updateStrategy")).put("method", "RollingInPlace");
        List<ObjectNode> observed = new ArrayList<>();
        for (int ordinal = 0; ordinal < 12; ordinal++) {
            observed.add(Requests.observedConfigMap("w-" + ordinal, 1, "hi"));
        }
        ObjectNode withObserved = Requests.sync(Requests.widget("w", 12, "hi"), observed, false);
        withObserved.set("controller", request.get("controller"));
        List<String> expected = List.of("w-11", "w-10", "w-9", "w-8", "w-7", "w-6", "w-5", "w-4", "w-3", "w-2", "w-1", "w-0");
        for (ObjectNode body : List.of(request, withObserved)) {
            ExtractableResponse<Response> first = SERVER.post("/pods/sync", Requests.bytes(body)).statusCode(200).extract();
            ExtractableResponse<Response> again = SERVER.post("/pods/sync", Requests.bytes(body)).statusCode(200).extract();
            assertEquals(expected, names(Json.parse(first.asByteArray()).get("children")));
            assertArrayEquals(first.asByteArray(), again.asByteArray(), "the same request, the same bytes");
            assertEquals(first.header("ETag"), again.header("ETag"));
        }
    }

    @Test
    void aStatusThatDoesNotFitStallsTheParentKeepsEveryChildAndNamesTheField() {
        ListAppender<ILoggingEvent> log = capture();
        ObjectNode parent = Requests.widget("job", 1, "hi");
        parent.putObject("status").put("completed", "three").putArray("conditions");
        ObjectNode kept = Requests.observedConfigMap("work-3", 1, "hi");
        ObjectNode request = Requests.sync(parent, List.of(kept), false);
        STRICT.seen.set(null);
        JsonNode answer = Json.parse(SERVER.post("/tracked/sync", Requests.bytes(request)).statusCode(200).extract().asByteArray());
        assertNull(STRICT.seen.get(), "the controller is not called with a status it cannot see");
        assertEquals(List.of("work-3"), names(answer.get("children")), "every child kept, none started again");
        JsonNode stalled = answer.at("/status/conditions/2");
        assertEquals("Stalled", stalled.path("type").asText());
        assertEquals("True", stalled.path("status").asText());
        assertEquals("InvalidStatus", stalled.path("reason").asText());
        assertTrue(stalled.path("message").asText().startsWith("/status/completed: must be an integer, got \"three\""), stalled.toString());
        assertEquals("three", answer.at("/status/completed").asText(), "the stored status is kept for a person to correct");
        assertTrue(log.list.stream().anyMatch(event -> event.getLevel() == Level.WARN
                && event.getFormattedMessage().contains("Widget default/job") && event.getFormattedMessage().contains("/status/completed")),
                "logged at WARN: " + log.list);
    }

    @Test
    void aFinalizeWithAStatusThatDoesNotFitDoesNotFinalize() {
        ObjectNode parent = Requests.widget("job", 1, "hi");
        parent.withObjectProperty("metadata").put("deletionTimestamp", "2026-11-29T16:00:00Z");
        parent.putObject("status").putArray("completed").add(1).add(2);
        ObjectNode request = Requests.sync(parent, List.of(Requests.observedConfigMap("work-3", 1, "hi")), true);
        JsonNode answer = Json.parse(SERVER.post("/finisher/finalize", Requests.bytes(request)).statusCode(200).extract().asByteArray());
        assertFalse(answer.path("finalized").asBoolean(true), answer.toString());
        assertEquals(List.of("work-3"), names(answer.get("children")));
        assertEquals("InvalidStatus", answer.at("/status/conditions/2/reason").asText());
    }

    @Test
    void aControllerThatReadsTheStatusRawGetsItRawAndIsCalled() {
        ObjectNode parent = Requests.widget("job", 1, "hi");
        parent.putObject("status").put("completed", "three");
        JsonNode answer = Json.parse(SERVER.post("/raw/sync", Requests.bytes(Requests.sync(parent, List.of(), false)))
                .statusCode(200).extract().asByteArray());
        assertNull(RAW.seen.get().getStatus());
        assertEquals(Map.of("completed", "three"), RAW.raw.get());
        assertEquals("Ready", answer.at("/status/conditions/0/type").asText());
        assertEquals("work-0", answer.at("/children/0/metadata/name").asText());
    }

    @Test
    void aStatusThatFitsIsReadTypedAndRaw() {
        ObjectNode parent = Requests.widget("job", 1, "hi");
        parent.putObject("status").put("completed", 3);
        JsonNode answer = Json.parse(SERVER.post("/tracked/sync", Requests.bytes(Requests.sync(parent, List.of(), false)))
                .statusCode(200).extract().asByteArray());
        assertEquals(3, STRICT.seen.get().getStatus().completed());
        assertEquals(Map.of("completed", 3), STRICT.raw.get());
        assertEquals("work-3", answer.at("/children/0/metadata/name").asText());
    }

    @Test
    void anExplicitEmptyListAndMapAreWrittenAndAnOrdinaryEmptyIsNot() {
        ConfigMap cleared = new ConfigMapBuilder().withNewMetadata().withName("settings").endMetadata().build();
        cleared.setData(Explicit.emptyMap());
        Role none = new RoleBuilder().withNewMetadata().withName("reader").endMetadata().build();
        none.setRules(Explicit.emptyList());
        ConfigMap unset = new ConfigMapBuilder().withNewMetadata().withName("settings").endMetadata().withData(Map.of()).build();
        Role builderEmpty = new RoleBuilder().withNewMetadata().withName("reader").endMetadata().withRules(List.of()).build();
        assertEquals("{}", Encoding.tree(cleared).get("data").toString());
        assertEquals("[]", Encoding.tree(none).get("rules").toString());
        assertFalse(Encoding.tree(unset).has("data"), "an empty map fabric8 started with is left out");
        assertFalse(Encoding.tree(builderEmpty).has("rules"), "a builder copies the list it is given, so it is an ordinary empty");
        Role some = new RoleBuilder().withNewMetadata().withName("reader").endMetadata()
                .withRules(new PolicyRuleBuilder().withApiGroups("").withResources("pods").withVerbs("get").build()).build();
        assertEquals(1, Encoding.tree(some).get("rules").size());
        Container plain = new ContainerBuilder().withName("app").withImage("app:1").build();
        plain.setArgs(Explicit.emptyList());
        plain.setEnv(List.of());
        JsonNode container = Encoding.tree(plain);
        assertEquals("[]", container.get("args").toString(), "a list of strings too");
        assertFalse(container.has("env"));
    }

    /**
     * The difference an explicit empty list makes under Metacontroller's merge: rules somebody else
     * wrote (not in the last-applied annotation) stay when the answer leaves the field out, and are
     * replaced by none when it says {@code []}.
     */
    @Test
    void anExplicitEmptyListReachesTheWireAndEmptiesTheMergedChild() {
        ObjectNode applied = Json.object();
        applied.put("apiVersion", "rbac.authorization.k8s.io/v1").put("kind", "Role").putObject("metadata").put("name", "reader")
                .put("namespace", "default").set("labels", labels("w"));
        ObjectNode observed = applied.deepCopy();
        observed.withObjectProperty("metadata").put("uid", "0b9f4a3c-0000-4000-8000-00000000r01e").putObject("annotations")
                .put(LastAppliedConfiguration.ANNOTATION, CanonicalJson.string(applied));
        observed.putArray("rules").addObject().<ObjectNode>set("apiGroups", Json.mapper().createArrayNode().add(""))
                .<ObjectNode>set("resources", Json.mapper().createArrayNode().add("pods"))
                .set("verbs", Json.mapper().createArrayNode().add("get"));
        ObjectNode request = Requests.sync(Requests.widget("w", 1, "hi"), List.of(observed), false);
        ((ObjectNode) request.at("/controller/spec")).withArray("childResources").addObject()
                .put("apiVersion", "rbac.authorization.k8s.io/v1").put("resource", "roles");
        CompositeController<Widget, Object> clearing = (widget, context) -> {
            Role role = role("reader");
            role.setRules(Explicit.emptyList());
            return Result.of(role);
        };
        CompositeController<Widget, Object> leaving = (widget, context) -> Result.of(role("reader"));
        HookEngine engine = new HookEngine(Controllers.builder().composite("clearing", Widget.class, clearing)
                .composite("leaving", Widget.class, leaving).build(), TestServer.CLOCK);

        JsonNode cleared = Json.parse(engine.handle("clearing", "sync", Requests.bytes(request)).body()).at("/children/0");
        assertEquals("[]", cleared.path("rules").toString(), "on the wire: " + cleared);
        assertEquals("[]", ThreeWayMerge.merge(observed, applied, cleared).get("rules").toString(), "the merged Role has no rules");

        JsonNode left = Json.parse(engine.handle("leaving", "sync", Requests.bytes(request)).body()).at("/children/0");
        assertFalse(left.has("rules"), left.toString());
        assertEquals(observed.get("rules"), ThreeWayMerge.merge(observed, applied, left).get("rules"), "an absent field leaves what was there");
    }

    /**
     * A map is merged key by key: {@code {}} removes the keys the controller wrote last time and keeps
     * the others'; a field left out is removed whole when it was in the last-applied annotation.
     */
    @Test
    void anExplicitEmptyMapReachesTheWireAndIsMergedKeyByKey() {
        ObjectNode observed = Requests.observedConfigMap("w", 1, "hi");
        JsonNode applied = LastAppliedConfiguration.of(observed).orElseThrow();
        ((ObjectNode) observed.get("data")).put("note", "written by hand");
        ObjectNode request = Requests.sync(Requests.widget("w", 1, "hi"), List.of(observed), false);
        CompositeController<Widget, Object> clearing = (widget, context) -> {
            ConfigMap map = configMap("w");
            map.setData(Explicit.emptyMap());
            return Result.of(map);
        };
        CompositeController<Widget, Object> leaving = (widget, context) -> {
            ConfigMap map = configMap("w");
            map.setData(Map.of());
            return Result.of(map);
        };
        HookEngine engine = new HookEngine(Controllers.builder().composite("clearing", Widget.class, clearing)
                .composite("leaving", Widget.class, leaving).build(), TestServer.CLOCK);

        JsonNode cleared = Json.parse(engine.handle("clearing", "sync", Requests.bytes(request)).body()).at("/children/0");
        assertEquals("{}", cleared.path("data").toString(), "on the wire: " + cleared);
        assertEquals("{\"note\":\"written by hand\"}", ThreeWayMerge.merge(observed, applied, cleared).get("data").toString());

        JsonNode left = Json.parse(engine.handle("leaving", "sync", Requests.bytes(request)).body()).at("/children/0");
        assertFalse(left.has("data"), left.toString());
        assertFalse(ThreeWayMerge.merge(observed, applied, left).has("data"), "a field left out goes whole");
    }

    private static ObjectNode labels(String name) {
        return Json.object().put("app.kubernetes.io/instance", name).put("app.kubernetes.io/name", "widget")
                .put("controller-uid", Requests.UID);
    }

    private static Role role(String name) {
        return new RoleBuilder().withNewMetadata().withName(name).withLabels(Map.of("app.kubernetes.io/instance", "w",
                "app.kubernetes.io/name", "widget", "controller-uid", Requests.UID)).endMetadata().build();
    }

    /** The ConfigMap the Widget controller answers, labelled as Metacontroller's selector wants. */
    private static ConfigMap configMap(String name) {
        return new ConfigMapBuilder().withNewMetadata().withName(name).withLabels(Map.of("app.kubernetes.io/instance", name,
                "app.kubernetes.io/name", "widget", "controller-uid", Requests.UID)).endMetadata().build();
    }

    private static List<String> names(JsonNode children) {
        List<String> names = new ArrayList<>();
        children.forEach(child -> names.add(child.at("/metadata/name").asText()));
        return names;
    }

    private static ListAppender<ILoggingEvent> capture() {
        Logger logger = (Logger) LoggerFactory.getLogger(TypedObjects.class);
        ListAppender<ILoggingEvent> appender = new ListAppender<>();
        appender.start();
        logger.addAppender(appender);
        return appender;
    }
}
