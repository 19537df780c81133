package dev.metahook.internal.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.api.Cleaner;
import dev.metahook.api.Cleanup;
import dev.metahook.api.CompositeController;
import dev.metahook.api.Context;
import dev.metahook.api.Controllers;
import dev.metahook.api.Customizer;
import dev.metahook.api.DecoratorCleaner;
import dev.metahook.api.DecoratorCleanup;
import dev.metahook.api.DecoratorController;
import dev.metahook.api.DecoratorResult;
import dev.metahook.api.RelatedRule;
import dev.metahook.api.Result;
import dev.metahook.testing.Fixtures;
import dev.metahook.testing.Requests;
import dev.metahook.testing.TestServer;
import dev.metahook.testing.Widget;
import dev.metahook.testing.WidgetController;
import dev.metahook.internal.wire.Json;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What the engine writes for the parts of the API the README promises: a decorator's label and
 * annotation changes, customize rules with a namespace selector, a decorator's customize hook, and
 * observed children parsed only when the controller asks for them.
 */
class AnswerShapesTest {
    private static final String DECORATOR_REQUEST = "metacontroller/03-decorator-sync-v1.request.json";

    /** A decorator that keeps its attachments and changes the target's labels and annotations; its customize asks for ConfigMaps. */
    static final class Labelling implements DecoratorController<StatefulSet, Object>, Customizer<StatefulSet> {
        @Override
        public DecoratorResult<Object> sync(StatefulSet target, Context context) {
            return Result.keepingObserved().withLabel("example.com/decorated", "yes").removingLabel("example.com/old")
                    .withAnnotation("example.com/note", "seen").removingAnnotation("example.com/stale");
        }

        @Override
        public List<RelatedRule> customize(StatefulSet target, Context context) {
            return List.of(RelatedRule.named("v1", "configmaps", target.getMetadata().getName() + "-settings")
                    .inNamespace(target.getMetadata().getNamespace()));
        }
    }

    /** A composite whose customize selects the Secrets labelled {@code shared=true} in the namespaces labelled {@code team=a}. */
    static final class AcrossNamespaces implements CompositeController<Widget, Object>, Customizer<Widget> {
        @Override
        public Result<Object> sync(Widget widget, Context context) {
            return Result.keepingObserved();
        }

        @Override
        public List<RelatedRule> customize(Widget widget, Context context) {
            return List.of(RelatedRule.selected("v1", "secrets", new LabelSelectorBuilder().addToMatchLabels("shared", "true").build())
                    .inNamespacesSelectedBy(new LabelSelectorBuilder().addToMatchLabels("team", "a").build()));
        }
    }

    /** A decorator whose cleanup is a plain {@link Cleaner}: done, target untouched. */
    static final class PlainCleaning implements DecoratorController<StatefulSet, Object>, Cleaner<StatefulSet, Object> {
        @Override
        public Result<Object> sync(StatefulSet target, Context context) {
            return Result.keepingObserved();
        }

        @Override
        public Cleanup<Object> cleanup(StatefulSet target, Context context) {
            return Cleanup.done(Result.of().deletingUnlisted());
        }
    }

    /** A decorator whose cleanup is a {@link DecoratorCleaner}: still working, taking its label away. */
    static final class Unlabelling implements DecoratorController<StatefulSet, Object>, DecoratorCleaner<StatefulSet, Object> {
        @Override
        public Result<Object> sync(StatefulSet target, Context context) {
            return Result.keepingObserved();
        }

        @Override
        public DecoratorCleanup<Object> cleanup(StatefulSet target, Context context) {
            return DecoratorCleanup.inProgress(Result.of().deletingUnlisted().removingLabel("example.com/decorated"));
        }
    }

    private static final HookEngine ENGINE = new HookEngine(Controllers.builder()
            .decorator("labelling", StatefulSet.class, new Labelling())
            .decorator("plain-cleaning", StatefulSet.class, new PlainCleaning())
            .decorator("unlabelling", StatefulSet.class, new Unlabelling())
            .composite("across", Widget.class, new AcrossNamespaces())
            .composite("widget", Widget.class, new WidgetController())
            .composite("blind", Widget.class, (CompositeController<Widget, Object>) (widget, context) -> Result.keepingObserved())
            .build(), TestServer.CLOCK);

    private static String text(HookAnswer answer) {
        return new String(answer.body(), StandardCharsets.UTF_8);
    }

    @Test
    void aDecoratorSetsAndRemovesLabelsAndAnnotationsRemovalsAsNull() {
        HookAnswer answer = ENGINE.handle("labelling", "sync", Fixtures.bytes(DECORATOR_REQUEST));
        assertEquals(200, answer.status(), text(answer));
        JsonNode body = Json.parse(answer.body());
        assertEquals("{\"example.com/decorated\":\"yes\",\"example.com/old\":null}", body.get("labels").toString());
        assertEquals("{\"example.com/note\":\"seen\",\"example.com/stale\":null}", body.get("annotations").toString());
    }

    /** Cleaner and DecoratorCleaner are siblings: a decorator's finalize goes to whichever it is, and says what it said. */
    @Test
    void aDecoratorsFinalizeGoesToItsCleanerOrItsDecoratorCleaner() {
        ObjectNode request = (ObjectNode) Json.parse(Fixtures.bytes(DECORATOR_REQUEST));
        request.put("finalizing", true);
        HookAnswer plain = ENGINE.handle("plain-cleaning", "finalize", Requests.bytes(request));
        assertEquals(200, plain.status(), text(plain));
        assertEquals("finalized", plain.outcome());
        JsonNode done = Json.parse(plain.body());
        assertEquals("{\"attachments\":[],\"finalized\":true}", done.toString());

        HookAnswer unlabelling = ENGINE.handle("unlabelling", "finalize", Requests.bytes(request));
        assertEquals(200, unlabelling.status(), text(unlabelling));
        assertEquals("finalizing", unlabelling.outcome());
        JsonNode working = Json.parse(unlabelling.body());
        assertEquals("{\"example.com/decorated\":null}", working.get("labels").toString());
        assertEquals("false", working.get("finalized").toString());
    }

    @Test
    void aDecoratorsCustomizeHookAnswersItsRules() {
        JsonNode decorator = Json.parse(Fixtures.bytes(DECORATOR_REQUEST));
        ObjectNode request = Requests.customize((ObjectNode) decorator.get("controller"), (ObjectNode) decorator.get("object"));
        HookAnswer answer = ENGINE.handle("labelling", "customize", Requests.bytes(request));
        assertEquals(200, answer.status(), text(answer));
        String name = decorator.at("/object/metadata/name").asText();
        String namespace = decorator.at("/object/metadata/namespace").asText();
        assertEquals("{\"relatedResources\":[{\"apiVersion\":\"v1\",\"names\":[\"" + name + "-settings\"],\"namespace\":\"" + namespace
                + "\",\"resource\":\"configmaps\"}]}", text(answer));
    }

    private static byte[] customizeRequest(String version) {
        ObjectNode controller = Requests.controller(true);
        controller.withObjectProperty("spec").withObjectProperty("hooks").putObject("customize").put("version", version)
                .putObject("webhook").put("url", "http://metahook.metahook-system/across/customize");
        return Requests.bytes(Requests.customize(controller, Requests.widget("hello", 1, "hi")));
    }

    @Test
    void aNamespaceSelectorIsWrittenForAV2CustomizeHookAndRefusedForAV1One() {
        HookAnswer v2 = ENGINE.handle("across", "customize", customizeRequest("v2"));
        assertEquals(200, v2.status(), text(v2));
        assertEquals("{\"relatedResources\":[{\"apiVersion\":\"v1\",\"labelSelector\":{\"matchLabels\":{\"shared\":\"true\"}},"
                + "\"namespaceSelector\":{\"matchLabels\":{\"team\":\"a\"}},\"resource\":\"secrets\"}]}", text(v2));

        HookAnswer v1 = ENGINE.handle("across", "customize", customizeRequest("v1"));
        assertEquals(500, v1.status(), text(v1));
        assertTrue(text(v1).contains("related-rule: /relatedResources/0: namespaceSelector is not supported for namespaced parent in v1 hook version"), text(v1));
    }

    /** An observed ConfigMap whose data is a number: JSON, the right kind and name, but no ConfigMap. */
    private static byte[] syncWithABrokenChild() {
        ObjectNode child = Requests.observedConfigMap("hello", 1, "hi");
        child.put("data", 5);
        return Requests.bytes(Requests.sync(Requests.widget("hello", 1, "hi"), List.of(child), false));
    }

    @Test
    void aChildNobodyAsksForIsNeverParsed() {
        HookAnswer ignored = ENGINE.handle("blind", "sync", syncWithABrokenChild());
        assertEquals(200, ignored.status(), "the controller never read the child: " + text(ignored));

        HookAnswer read = ENGINE.handle("widget", "sync", syncWithABrokenChild());
        assertEquals(400, read.status(), text(read));
        assertEquals("/children/ConfigMap.v1/hello/data", Json.parse(read.body()).path("pointer").asText(), text(read));
    }
}
