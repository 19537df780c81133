package dev.metahook.internal.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.api.Cleaner;
import dev.metahook.api.Cleanup;
import dev.metahook.api.CompositeController;
import dev.metahook.api.Conditions;
import dev.metahook.api.Context;
import dev.metahook.api.ControllerInfo;
import dev.metahook.api.Controllers;
import dev.metahook.api.DecoratorController;
import dev.metahook.api.Hook;
import dev.metahook.api.Result;
import dev.metahook.api.StalledHandler;
import dev.metahook.api.TerminalException;
import dev.metahook.testing.Fixtures;
import dev.metahook.testing.Requests;
import dev.metahook.testing.TestServer;
import dev.metahook.testing.Widget;
import dev.metahook.internal.wire.CanonicalJson;
import dev.metahook.internal.wire.Json;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The controller API as the engine serves it: capabilities, the context, one result family, decorators as safe as composites. */
class ControllerApiTest {
    private static final String DECORATOR_REQUEST = "metacontroller/03-decorator-sync-v1.request.json";

    /** A controller with an unrelated method that happens to be called finalize: it has no finalize hook. */
    static final class Lookalike implements CompositeController<Widget, Object> {
        @Override
        public Result<Object> sync(Widget widget, Context context) {
            return Result.keepingObserved();
        }

        public void finalize(String reason, int attempts) {
            throw new AssertionError("never a hook");
        }
    }

    static final class Tidy implements CompositeController<Widget, Object>, Cleaner<Widget, Object> {
        @Override
        public Result<Object> sync(Widget widget, Context context) {
            return Result.keepingObserved();
        }

        @Override
        public Cleanup<Object> cleanup(Widget widget, Context context) {
            return Cleanup.done();
        }
    }

    @Test
    void hooksFollowTheInterfacesAControllerImplementsNotItsMethodNames() {
        Controllers controllers = Controllers.builder()
                .composite("lookalike", Widget.class, new Lookalike())
                .composite("tidy", Widget.class, new Tidy())
                .build();
        assertEquals(EnumSet.of(Hook.SYNC), controllers.hooks("lookalike"));
        assertEquals(EnumSet.of(Hook.SYNC, Hook.FINALIZE), controllers.hooks("tidy"));
        HookAnswer answer = new HookEngine(controllers, TestServer.CLOCK).handle("lookalike", "finalize",
                Requests.bytes(Requests.sync(Requests.widget("hello", 1, "hi"), List.of(), true)));
        assertEquals(404, answer.status());
    }

    @Test
    void aDecoratorThatThrowsOnABuiltInTargetLeavesItsStatusOut() {
        DecoratorController<StatefulSet, Object> strict = (statefulSet, context) -> {
            throw new TerminalException("MissingPorts", "annotation service-per-pod-ports: no port given");
        };
        JsonNode answer = call(Controllers.builder().decorator("strict", StatefulSet.class, strict).build(), "strict", "sync",
                Fixtures.bytes(DECORATOR_REQUEST));
        assertFalse(answer.has("status"), "the StatefulSet's status is its own controller's: " + answer);
        assertEquals(3, answer.get("attachments").size(), "every attachment kept as last applied");
        assertFalse(answer.get("attachments").get(0).has("status"));
    }

    @Test
    void aDecoratorWithAStalledHandlerSaysStalledOnACustomResourceTarget() {
        final class Checked implements DecoratorController<Widget, Map<String, Object>>, StalledHandler<Widget, Map<String, Object>> {
            @Override
            public Result<Map<String, Object>> sync(Widget widget, Context context) {
                throw new TerminalException("InvalidSpec", "spec.message: must not be empty");
            }

            @Override
            public Result<Map<String, Object>> stalled(Widget widget, Context context, TerminalException error) {
                return Result.keepingObserved().withStatus(Map.of("conditions",
                        Conditions.from(widget, context.clock()).stalled(error.reason(), error.getMessage()).list()));
            }
        }
        JsonNode answer = call(Controllers.builder().decorator("checked", Widget.class, new Checked()).build(), "checked", "sync",
                decoratorRequest(Requests.widget("hello", 1, "")));
        assertEquals("Stalled", answer.at("/status/conditions/2/type").textValue());
        assertEquals("True", answer.at("/status/conditions/2/status").textValue());
        assertEquals("InvalidSpec", answer.at("/status/conditions/2/reason").textValue());
    }

    @Test
    void aDecoratorDeletesOnlyWhatItSaysAndTheGuardsRefuseTheRest() {
        DecoratorController<StatefulSet, Object> one = (statefulSet, context) -> Result.of(
                context.children().lastApplied(Service.class, "nginx-0").stream().toList()).deletingUnlisted()
                .withLabel("decorated", "yes");
        JsonNode answer = call(Controllers.builder().decorator("one", StatefulSet.class, one).build(), "one", "sync",
                Fixtures.bytes(DECORATOR_REQUEST));
        assertEquals(1, answer.get("attachments").size());
        assertEquals("yes", answer.at("/labels/decorated").textValue());

        DecoratorController<StatefulSet, Object> forgetful = (statefulSet, context) -> Result.of();
        HookAnswer refused = new HookEngine(Controllers.builder().decorator("forgetful", StatefulSet.class, forgetful).build(),
                TestServer.CLOCK).handle("forgetful", "sync", Fixtures.bytes(DECORATOR_REQUEST));
        assertEquals(500, refused.status());
        assertTrue(new String(refused.body()).contains("nginx-0"), new String(refused.body()));
    }

    @Test
    void aCompositeThatSetsNoStatusKeepsTheOneTheParentHas() {
        CompositeController<Widget, Object> quiet = (widget, context) -> Result.keepingObserved();
        ObjectNode parent = Requests.widget("hello", 1, "hi");
        parent.putObject("status").put("phase", "Running").put("observedGeneration", 2);
        JsonNode answer = call(Controllers.builder().composite("quiet", Widget.class, quiet).build(), "quiet", "sync",
                Requests.bytes(Requests.sync(parent, List.of(), false)));
        assertEquals(parent.get("status"), answer.get("status"));
    }

    @Test
    void theContextCarriesWhatMetacontrollerSent() {
        AtomicReference<ControllerInfo> seen = new AtomicReference<>();
        AtomicReference<Boolean> finalizing = new AtomicReference<>();
        final class Recorder implements CompositeController<Widget, Object>, Cleaner<Widget, Object> {
            @Override
            public Result<Object> sync(Widget widget, Context context) {
                seen.set(context.controller());
                finalizing.set(context.finalizing());
                return Result.keepingObserved();
            }

            @Override
            public Cleanup<Object> cleanup(Widget widget, Context context) {
                finalizing.set(context.finalizing());
                return Cleanup.done();
            }
        }
        Controllers controllers = Controllers.builder().composite("recorder", Widget.class, new Recorder()).build();
        ObjectNode request = Requests.sync(Requests.widget("hello", 1, "hi"), List.of(), false);
        request.withObjectProperty("controller").withObjectProperty("spec").put("resyncPeriodSeconds", 30);
        request.withObjectProperty("controller").withObjectProperty("spec").withObjectProperty("hooks").withObjectProperty("sync").put("version", "v2");
        call(controllers, "recorder", "sync", Requests.bytes(request));
        assertEquals("widget-controller", seen.get().name());
        assertEquals(Duration.ofSeconds(30), seen.get().resyncPeriod().orElseThrow());
        assertEquals(List.of(new ControllerInfo.Resource("v1", "configmaps")), seen.get().childResources());
        assertEquals("v2", seen.get().hookVersion(Hook.SYNC));
        assertEquals("v1", seen.get().hookVersion(Hook.FINALIZE));
        assertFalse(finalizing.get());
        call(controllers, "recorder", "finalize", Requests.bytes(Requests.sync(Requests.widget("hello", 1, "hi"), List.of(), true)));
        assertTrue(finalizing.get());
    }

    private static ObjectNode decoratorRequest(ObjectNode target) {
        ObjectNode request = Json.object();
        ObjectNode controller = Json.object().put("apiVersion", "metacontroller.k8s.io/v1alpha1").put("kind", "DecoratorController");
        controller.putObject("metadata").put("name", "widget-decorator");
        controller.putObject("spec").putArray("attachments").addObject().put("apiVersion", "v1").put("resource", "configmaps");
        request.set("controller", controller);
        request.set("object", target);
        request.putObject("attachments").putObject("ConfigMap.v1");
        request.putObject("related");
        request.put("finalizing", false);
        return request.deepCopy();
    }

    private static JsonNode call(Controllers controllers, String name, String hook, ObjectNode request) {
        return call(controllers, name, hook, CanonicalJson.bytes(request));
    }

    private static JsonNode call(Controllers controllers, String name, String hook, byte[] body) {
        HookAnswer answer = new HookEngine(controllers, TestServer.CLOCK).handle(name, hook, body);
        assertEquals(200, answer.status(), new String(answer.body()));
        return Json.parse(answer.body());
    }

    @Test
    void aDecoratorRequestWhoseRelatedObjectIsNotAnObjectIsABadRequest() {
        DecoratorController<StatefulSet, Object> keep = (statefulSet, context) -> Result.keepingObserved();
        ObjectNode request = (ObjectNode) Json.parse(Fixtures.bytes(DECORATOR_REQUEST));
        request.withObjectProperty("related").putObject("ConfigMap.v1").put("ports", 42);
        HookAnswer answer = new HookEngine(Controllers.builder().decorator("keep", StatefulSet.class, keep).build(), TestServer.CLOCK)
                .handle("keep", "sync", CanonicalJson.bytes(request));
        assertEquals(400, answer.status(), new String(answer.body()));
        assertTrue(new String(answer.body()).contains("/related/ConfigMap.v1/ports"), new String(answer.body()));
    }
}
