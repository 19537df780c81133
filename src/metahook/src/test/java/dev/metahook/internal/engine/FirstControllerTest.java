package dev.metahook.internal.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahook.api.Cleaner;
import dev.metahook.api.Cleanup;
import dev.metahook.api.CompositeController;
import dev.metahook.api.Context;
import dev.metahook.api.Controllers;
import dev.metahook.api.CustomResource;
import dev.metahook.api.Result;
import dev.metahook.testing.Requests;
import dev.metahook.testing.TestServer;
import dev.metahook.testing.Widget;
import dev.metahook.internal.wire.Json;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.apps.DaemonSetStatus;
import io.fabric8.kubernetes.api.model.apps.DaemonSetStatusBuilder;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What a new user hit writing a first controller, each now compiling or failing where it should: the
 * lambda's status type, the chain's, a decorator's method in a composite, an unannotated parent type,
 * an observed child returned as read.
 */
class FirstControllerTest {

    /** The common chain in a method that says its status type: no {@code Result.<S>of} needed. */
    private static Result<Map<String, Object>> messages(Widget widget, Context context) {
        List<ConfigMap> maps = new ArrayList<>();
        maps.add(new ConfigMapBuilder().withNewMetadata().withName(widget.getMetadata().getName()).endMetadata().build());
        return Result.of(maps).deletingUnlisted();
    }

    private static final HookEngine ENGINE = new HookEngine(Controllers.builder()
            .composite("daemons", Widget.class, (widget, context) -> Result.of().deletingUnlisted()
                    .withStatus(new DaemonSetStatusBuilder().withNumberReady(2).build()))
            .composite("typed", Widget.class, (widget, context) -> {
                Result<DaemonSetStatus> result = Result.keepingObserved();
                return result.resyncAfter(java.time.Duration.ofSeconds(30));
            })
            .composite("messages", Widget.class, FirstControllerTest::messages)
            .composite("as-read", Widget.class, (widget, context) -> Result.of(context.children().all(ConfigMap.class)))
            .composite("last-applied", Widget.class, (widget, context) ->
                    Result.of(context.children().lastApplied(ConfigMap.class, "hello").orElseThrow()))
            .build(), TestServer.CLOCK);

    private static HookAnswer sync(String controller) {
        return ENGINE.handle(controller, "sync", Requests.bytes(Requests.sync(Requests.widget("hello", 3, "hi"),
                List.of(Requests.observedConfigMap("hello", 3, "hi")), false)));
    }

    private static JsonNode body(HookAnswer answer) {
        return Json.parse(answer.body());
    }

    @Test
    void aLambdaReturningAResultOfAFabric8StatusIsAComposite() {
        HookAnswer answer = sync("daemons");
        assertEquals(200, answer.status(), new String(answer.body()));
        assertEquals(2, body(answer).path("status").path("numberReady").asInt());
        assertEquals(200, sync("typed").status());
        assertEquals(30, body(sync("typed")).path("resyncAfterSeconds").asInt());
    }

    @Test
    void theCommonChainInfersTheStatusType() {
        HookAnswer answer = sync("messages");
        assertEquals(200, answer.status(), new String(answer.body()));
        assertEquals("hello", body(answer).path("children").path(0).path("metadata").path("name").asText());
    }

    @Test
    void anObservedChildReturnedAsReadIsRefusedPointingAtLastApplied() {
        HookAnswer answer = sync("as-read");
        assertEquals(500, answer.status());
        List<String> serverFields = new ArrayList<>();
        body(answer).path("violations").forEach(violation -> {
            if (violation.asText().startsWith("server-field")) {
                serverFields.add(violation.asText());
            }
        });
        assertTrue(serverFields.size() > 1, serverFields.toString());
        assertTrue(serverFields.get(0).contains("context.children().lastApplied(Type.class, name)"), serverFields.get(0));
        assertEquals(1, serverFields.stream().filter(text -> text.contains("lastApplied")).count(), "said once per child");
        assertEquals(200, sync("last-applied").status(), "the way the message points to works");
    }

    @Version("v1")
    static final class Versioned extends CustomResource<Map<String, Object>, Map<String, Object>> {
    }

    static final class Bare extends CustomResource<Map<String, Object>, Map<String, Object>> {
    }

    @Group("example.com")
    @Version("v1")
    static final class Annotated extends CustomResource<Map<String, Object>, Map<String, Object>> {
    }

    @Test
    void aParentTypeWithoutGroupOrVersionFailsAtRegistrationSayingWhatToAdd() {
        IllegalArgumentException noGroup = assertThrows(IllegalArgumentException.class, () -> Controllers.builder()
                .composite("versioned", Versioned.class, (parent, context) -> Result.keepingObserved()));
        assertTrue(noGroup.getMessage().startsWith("controller versioned: " + Versioned.class.getName() + " has no @Group;"),
                noGroup.getMessage());
        assertTrue(noGroup.getMessage().contains("@Group(\"example.com\") and @Version(\"v1\")"), noGroup.getMessage());
        IllegalArgumentException neither = assertThrows(IllegalArgumentException.class, () -> Controllers.builder()
                .decorator("bare", Bare.class, (target, context) -> Result.keepingObserved()));
        assertTrue(neither.getMessage().contains("has no @Group or @Version"), neither.getMessage());
        Controllers.builder().composite("annotated", Annotated.class, (parent, context) -> Result.keepingObserved()).build();
    }

    /** A controller of Widgets whose cleanup was written for another type: it would fail on every finalize call. */
    static final class MixedUp implements CompositeController<Widget, Object>, Cleaner<Annotated, Object> {
        @Override
        public Result<Object> sync(Widget parent, Context context) {
            return Result.keepingObserved();
        }

        @Override
        public Cleanup<Object> cleanup(Annotated parent, Context context) {
            return Cleanup.done();
        }
    }

    @Test
    void aCapabilityOfAnotherParentTypeFailsAtRegistrationNamingBoth() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> Controllers.builder()
                .composite("mixed", Widget.class, new MixedUp()));
        assertEquals("controller mixed: it is registered for " + Widget.class.getName() + ", but " + MixedUp.class.getName()
                + " is a Cleaner of " + Annotated.class.getName() + "; a controller's capabilities take its own parent type",
                refused.getMessage());
    }
}
