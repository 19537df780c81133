package dev.metahook.internal.sim;

import static dev.metahook.testing.StoredObjects.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.api.ChildId;
import dev.metahook.internal.wire.CanonicalJson;
import dev.metahook.internal.wire.Json;
import dev.metahook.testing.TestServer;
import dev.metahook.testkit.CheckReport;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Breaches Metacontroller's own behaviour decides: what it applies, what it calls again, what it never sees. */
class CheckBreachesTest {
    private static final JsonNode WIDGET = json("{'apiVersion':'example.com/v1','kind':'Widget','metadata':{'name':'w','namespace':'default'},"
            + "'spec':{}}");

    private static ControllerSpec widgets(String parentResource) {
        return ControllerSpec.read(json("{'apiVersion':'metacontroller.k8s.io/v1alpha1','kind':'CompositeController',"
                + "'metadata':{'name':'widget-controller'},'spec':{'generateSelector':true,'parentResource':{'apiVersion':'example.com/v1',"
                + "'resource':'widgets'" + parentResource + "},'childResources':[{'apiVersion':'v1','resource':'configmaps'}],"
                + "'hooks':{'sync':{'webhook':{'url':'http://hooks/sync'}}}}}"));
    }

    private static HookClient.Reply ok(String answer, Duration took) {
        return new HookClient.Reply(200, Map.of("Content-Type", "application/json"), answer.getBytes(StandardCharsets.UTF_8), took, null);
    }

    private static final String ONE_CONFIG_MAP = "{\"status\":{},\"children\":[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\","
            + "\"metadata\":{\"name\":\"w-data\"},\"data\":{\"a\":\"b\"}}]}";

    @Test
    void theRepeatPhaseReportsAnAnswerThatIsNot200() {
        // a hook that cannot read a request whose keys are in another order than the canonical one
        HookClient hook = (name, body) -> Arrays.equals(body, CanonicalJson.bytes(Json.parse(body)))
                ? ok(ONE_CONFIG_MAP, Duration.ZERO)
                : new HookClient.Reply(500, Map.of(), "cannot read this request".getBytes(StandardCharsets.UTF_8), Duration.ZERO, null);
        CheckReport report = new Checker(widgets(""), hook, TestServer.CLOCK, 10).check(WIDGET, null);
        assertEquals(List.of("status repeat sync answered 500: cannot read this request"), report.breaches().stream()
                .map(breach -> breach.kind() + " " + breach.phase() + " " + breach.message()).toList());
    }

    @Test
    void anAnswerLaterThanTheTimeoutAppliesNothing() {
        HookClient late = (name, body) -> ok(ONE_CONFIG_MAP, Duration.ofSeconds(12));
        Simulation simulation = new Simulation(widgets(""), late, TestServer.CLOCK);
        ChildId parent = simulation.create(WIDGET);
        simulation.converge(parent, 5, true);
        assertTrue(simulation.store().get(new ChildId("v1", "ConfigMap", "default", "w-data")).isEmpty(),
                "Metacontroller's client gave up after 10 s: the answer is never applied");

        CheckReport report = new Checker(widgets(""), late, TestServer.CLOCK, 5).check(WIDGET, null);
        assertEquals(List.of("too-slow", "no-progress"), report.breaches().stream().map(CheckReport.Breach::kind).toList(), report::toString);
    }

    /** A status that changes on every call: a hot loop, unless the parent's status changes are ignored. */
    private static HookClient counting() {
        AtomicInteger calls = new AtomicInteger();
        return (name, body) -> {
            ObjectNode answer = (ObjectNode) Json.parse(ONE_CONFIG_MAP.getBytes(StandardCharsets.UTF_8));
            answer.withObjectProperty("status").put("calls", calls.incrementAndGet());
            return ok(answer.toString(), Duration.ZERO);
        };
    }

    @Test
    void ignoreStatusChangesEndsTheLoopAStatusOnlyUpdateWouldStart() {
        List<String> watched = new Checker(widgets(""), counting(), TestServer.CLOCK, 10).check(WIDGET, null).breaches().stream()
                .map(CheckReport.Breach::kind).distinct().toList();
        assertTrue(watched.contains("hot-loop"), watched.toString());

        List<String> ignored = new Checker(widgets(",'ignoreStatusChanges':true"), counting(), TestServer.CLOCK, 10).check(WIDGET, null)
                .breaches().stream().map(CheckReport.Breach::kind).distinct().toList();
        assertEquals(List.of("non-deterministic"), ignored, "the same request still gets two answers, but nothing loops");
    }

    @Test
    void aChildOutsideTheSelectorIsOneBreachNamingTheChild() {
        HookClient unlabelled = (name, body) -> ok(ONE_CONFIG_MAP, Duration.ZERO);
        ControllerSpec selecting = ControllerSpec.read(json(widgets("").manifest().toString().replace("\"generateSelector\":true",
                "\"generateSelector\":false")));
        JsonNode parent = json("{'apiVersion':'example.com/v1','kind':'Widget','metadata':{'name':'w','namespace':'default'},"
                + "'spec':{'selector':{'matchLabels':{'app':'w'}}}}");
        CheckReport report = new Checker(selecting, unlabelled, TestServer.CLOCK, 5).check(parent, null);
        List<CheckReport.Breach> selector = report.breaches().stream().filter(breach -> breach.kind().equals("selector")).toList();
        assertEquals(1, selector.size(), report::toString);
        assertEquals("ConfigMap default/w-data", selector.get(0).object());
    }

    private static final String ONE_GADGET = "{\"status\":{},\"children\":[{\"apiVersion\":\"example.com/v1\",\"kind\":\"Gadget\","
            + "\"metadata\":{\"name\":\"w-gadget\"}},{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"w-data\"}}]}";

    private static final JsonNode GADGETS = json("{'apiVersion':'apiextensions.k8s.io/v1','kind':'CustomResourceDefinition',"
            + "'metadata':{'name':'gadgets.example.com'},'spec':{'group':'example.com','scope':'Namespaced',"
            + "'names':{'kind':'Gadget','plural':'gadgets','singular':'gadget','listKind':'GadgetList'},"
            + "'versions':[{'name':'v1','served':true,'storage':true,'schema':{'openAPIV3Schema':{'type':'object',"
            + "'x-kubernetes-preserve-unknown-fields':true}}}]}}");

    private static ControllerSpec gadgets() {
        return ControllerSpec.read(json(widgets("").manifest().toString().replace("\"childResources\":[",
                "\"childResources\":[{\"apiVersion\":\"example.com/v1\",\"resource\":\"gadgets\"},")));
    }

    @Test
    void aChildOfAKindTheApiServerDoesNotServeFailsEverySyncAndIsCreatedNever() {
        HookClient hook = (name, body) -> ok(ONE_GADGET, Duration.ZERO);
        ControllerSpec undeclared = widgets("");
        Simulation simulation = new Simulation(undeclared, hook, TestServer.CLOCK);
        ChildId parent = simulation.create(WIDGET);
        Simulation.Run run = simulation.converge(parent, 5, true);
        assertTrue(run.passes().stream().allMatch(pass -> pass.outcome() == CompositeSimulator.Outcome.FAILED), run.passes()::toString);
        assertEquals("can't reconcile children for Widget default/w: discovery: can't find kind Gadget in apiVersion example.com/v1",
                run.last().error());
        assertTrue(simulation.store().get(new ChildId("example.com/v1", "Gadget", "default", "w-gadget")).isEmpty(), "never created");
        assertTrue(simulation.store().get(new ChildId("v1", "ConfigMap", "default", "w-data")).isPresent(), "the rest is written");

        CheckReport report = new Checker(undeclared, hook, TestServer.CLOCK, 5).check(WIDGET, null);
        List<CheckReport.Breach> unserved = report.breaches().stream().filter(breach -> breach.kind().equals("unserved")).toList();
        assertEquals(1, unserved.size(), report::toString);
        assertEquals("Gadget default/w-gadget", unserved.get(0).object());
        assertTrue(unserved.get(0).message().startsWith("sync answered [Gadget default/w-gadget] of apiVersion example.com/v1, a kind the API"
                + " server does not serve: Metacontroller's discovery finds no resource for it"), unserved.get(0).message());
    }

    @Test
    void aDeclaredResourceTheApiServerDoesNotServeKeepsTheControllerFromStarting() {
        AtomicInteger calls = new AtomicInteger();
        HookClient hook = (name, body) -> {
            calls.incrementAndGet();
            return ok(ONE_GADGET, Duration.ZERO);
        };
        CheckReport report = new Checker(gadgets(), hook, TestServer.CLOCK, 5).check(WIDGET, null);
        assertEquals(List.of("unserved"), report.breaches().stream().map(CheckReport.Breach::kind).toList(), report::toString);
        assertTrue(report.breaches().get(0).message().contains("can't create informer for child resource: can't create client for"
                + " gadgets.example.com/v1 shared informer: discovery: can't find resource gadgets in apiVersion example.com/v1"),
                report.breaches().get(0).message());
        assertEquals(0, calls.get(), "Metacontroller never calls a hook of a controller it could not start");

        CheckReport served = new Checker(gadgets().withDefinitions(List.of(GADGETS)), hook, TestServer.CLOCK, 5).check(WIDGET, null);
        assertTrue(served.clean(), served::toString);
    }

    private static ControllerSpec customizing(String annotations) {
        return ControllerSpec.read(json(widgets("").manifest().toString()
                .replace("\"name\":\"widget-controller\"", "\"name\":\"widget-controller\"" + annotations)
                .replace("\"hooks\":{", "\"hooks\":{\"customize\":{\"webhook\":{\"url\":\"http://hooks/customize\"}},")));
    }

    /** Customize asks for the ConfigMaps named like the parent; none is there. */
    private static HookClient customizeAndSync() {
        return (name, body) -> name.equals("customize")
                ? ok("{\"relatedResources\":[{\"apiVersion\":\"v1\",\"resource\":\"configmaps\",\"names\":[\"w-source\"]}]}", Duration.ZERO)
                : ok(ONE_CONFIG_MAP, Duration.ZERO);
    }

    @Test
    void customizeThatSelectsNothingIsTheNormalStateUnlessTheControllerRequiresRelatedObjects() {
        CheckReport normal = new Checker(customizing(""), customizeAndSync(), TestServer.CLOCK, 10).check(WIDGET, null);
        assertTrue(normal.clean(), normal::toString);

        CheckReport required = new Checker(customizing(",\"annotations\":{\"metahook.dev/requires-related\":\"true\"}"),
                customizeAndSync(), TestServer.CLOCK, 10).check(WIDGET, null);
        assertEquals(List.of("no-related customize life"), required.breaches().stream()
                .map(breach -> breach.kind() + " " + breach.hook() + " " + breach.phase()).toList(), required::toString);
    }
}
