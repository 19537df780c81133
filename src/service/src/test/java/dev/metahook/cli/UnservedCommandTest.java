package dev.metahook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.internal.wire.Json;
import dev.metahook.testkit.CheckReport;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code check} on a controller Metacontroller cannot run as written, as a user sees it in the text and the JSON report:
 * a parent resource the given CustomResourceDefinition does not serve, a related resource the cluster does not serve;
 * and a parent whose definition was not given, which is assumed served.
 */
class UnservedCommandTest {
    private static final String PARENT = """
            apiVersion: test.metahook.dev/v1
            kind: Widget
            metadata: {name: hello, namespace: default}
            spec: {size: 3}
            """;

    private static final String DEFINITION = """
            apiVersion: apiextensions.k8s.io/v1
            kind: CustomResourceDefinition
            metadata: {name: widgets.test.metahook.dev}
            spec:
              group: test.metahook.dev
              scope: Namespaced
              names: {kind: Widget, plural: widgets, singular: widget, listKind: WidgetList}
              versions:
              - name: v1
                served: true
                storage: true
                subresources: {status: {}}
                schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
            ---
            """;

    private static final String PARENT_UNSERVED = "Metacontroller v4.17.2 cannot start the CompositeController widget-controller: its"
            + " parentResource test.metahook.dev/v2 widgets is not served: the CustomResourceDefinition widgets.test.metahook.dev serves"
            + " v1, and does not list v2. Metacontroller reads that CustomResourceDefinition, finds no status subresource for v2 in it,"
            + " and ignores the controller with a Warning event ([widget-controller] Sync error - ignoring, CRD [...] does not have"
            + " subresource 'Status' enabled) until the controller changes, so no hook is called for any parent and nothing was"
            + " checked. To fix: serve v2 in the CustomResourceDefinition widgets.test.metahook.dev, or name a version it serves";

    private static final String RELATED_UNSERVED = "customize asked for related v1 configmap, which is not served: Kubernetes serves no"
            + " resource configmap in v1 (a resource is named by its plural in lower case: configmaps). Metacontroller's discovery does"
            + " not find it (discovery: can't find resource configmap in apiVersion v1), so every sync of the parent fails there, after"
            + " customize and before the sync hook, and is retried with backoff (from v1.5.6 with a SyncError event on it: Sync error:"
            + " discovery: can't find resource configmap in apiVersion v1): the sync and finalize hooks are never called, no child or"
            + " status is written, and once deleted it keeps the controller's finalizer, on every release from v1.5.0 to v4.17.2. To"
            + " fix: give the CustomResourceDefinition that defines it with the controller, or fix the rule's apiVersion or resource"
            + " (the plural)";

    @TempDir
    Path dir;

    private String controller(String definition, String parentApiVersion, boolean customize) throws Exception {
        Path file = dir.resolve("controller.yaml");
        Files.writeString(file, definition + """
                apiVersion: metacontroller.k8s.io/v1alpha1
                kind: CompositeController
                metadata: {name: widget-controller}
                spec:
                  generateSelector: true
                  parentResource: {apiVersion: %s, resource: widgets}
                  childResources:
                  - {apiVersion: v1, resource: configmaps, updateStrategy: {method: InPlace}}
                  hooks:
                    sync: {webhook: {url: http://widgets.example/sync}}
                    finalize: {webhook: {url: http://widgets.example/finalize}}
                """.formatted(parentApiVersion) + (customize ? "    customize: {webhook: {url: http://widgets.example/customize}}\n" : ""));
        return file.toString();
    }

    private record Result(int exit, String out) {
    }

    private Result check(String controller, Function<JsonNode, ScriptedHook.Answer> script, String... more) throws Exception {
        Path parent = dir.resolve("parent.yaml");
        Files.writeString(parent, PARENT);
        try (ScriptedHook hook = new ScriptedHook(script)) {
            List<String> args = new ArrayList<>(List.of("--controller", controller, "--parent", parent.toString(), "--url", hook.url(),
                    "--passes", "6"));
            args.addAll(List.of(more));
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            int exit = Main.exitCode(() -> CheckCommand.run(args, Map.of(), new PrintStream(out, true, StandardCharsets.UTF_8)));
            return new Result(exit, out.toString(StandardCharsets.UTF_8));
        }
    }

    /** The well-behaved Widget hook, counting its sync and finalize calls; customize asks for {@code rule} when given. */
    private static Function<JsonNode, ScriptedHook.Answer> widgets(AtomicInteger syncs, ObjectNode rule) {
        return request -> {
            if (!request.has("children")) {
                ObjectNode answer = Json.object();
                answer.putArray("relatedResources").add(rule);
                return ScriptedHook.Answer.ok(answer);
            }
            syncs.incrementAndGet();
            return ScriptedHook.Answer.ok(ScriptedHook.wellBehaved(request));
        };
    }

    private static CheckReport json(Result result) throws Exception {
        return new ObjectMapper().readValue(result.out(), CheckReport.class);
    }

    /**
     * Checks the controller in text and as JSON: one {@code unserved} breach of {@code message} in each, on the
     * Widget at creation, in call {@code call} of {@code hook}. The text result, for more assertions.
     */
    private Result assertOneUnservedBreach(String controller, Function<JsonNode, ScriptedHook.Answer> script, String hook, int call,
                                           String message) throws Exception {
        Result text = check(controller, script);
        assertEquals(1, text.exit(), text.out());
        assertEquals(List.of("BREACH unserved: " + message), breachLines(text));
        Result json = check(controller, script, "--format", "json");
        assertEquals(1, json.exit(), json.out());
        assertEquals(List.of(new CheckReport.Breach("unserved", hook, "Widget default/hello", "create", call, message,
                "Kubernetes 1.29-1.37")), json(json).breaches());
        return text;
    }

    private static List<String> breachLines(Result result) {
        return result.out().lines().filter(line -> line.startsWith("BREACH ")).toList();
    }

    @Test
    void aParentVersionTheGivenDefinitionDoesNotServeIsOneBreachAndNoHookIsCalled() throws Exception {
        String controller = controller(DEFINITION, "test.metahook.dev/v2", false);
        AtomicInteger syncs = new AtomicInteger();
        Result text = assertOneUnservedBreach(controller, widgets(syncs, null), "sync", 0, PARENT_UNSERVED);
        assertTrue(text.out().contains("check: 1 breaches in 0 hook calls\n"), text.out());
        assertEquals(0, syncs.get(), "Metacontroller calls no hook of a controller it does not start");
    }

    @Test
    void aRelatedResourceTheClusterDoesNotServeIsOneBreachAndTheSyncHookIsNeverCalled() throws Exception {
        String controller = controller("", "test.metahook.dev/v1", true);
        ObjectNode rule = Json.object().put("apiVersion", "v1").put("resource", "configmap");
        rule.putArray("names").add("settings");
        AtomicInteger syncs = new AtomicInteger();
        assertOneUnservedBreach(controller, widgets(syncs, rule), "customize", 1, RELATED_UNSERVED);
        assertEquals(0, syncs.get(), "every sync fails after customize, before the sync hook");
    }

    /** Without the parent's CustomResourceDefinition the check cannot know what the cluster serves: it assumes the parent is served. */
    @Test
    void aParentWithoutItsDefinitionIsAssumedServedOnEveryRelease() throws Exception {
        String controller = controller("", "test.metahook.dev/v1", false);
        for (String release : List.of("v4.17.2", "v2.6.1", "v1.5.0")) {
            AtomicInteger syncs = new AtomicInteger();
            Result result = check(controller, widgets(syncs, null), "--format", "json", "--metacontroller-version", release);
            assertEquals(0, result.exit(), result.out());
            assertEquals(List.of(), json(result).breaches());
            assertTrue(syncs.get() > 0, release);
        }
    }
}
