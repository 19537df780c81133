package dev.metahook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@code render} and {@code check} on a DecoratorController: a scripted foreign hook in the manner of
 * Metacontroller's service-per-pod example (a Service per StatefulSet pod, a label on the StatefulSet,
 * finalize once the Services are gone), well-behaved and broken one way at a time.
 */
class DecoratorCommandsTest {
    private static final String DIR = "src/service/src/test/resources/cli/service-per-pod/";
    private static final String EXAMPLES = "examples/foreign-hooks/";
    private static final String CONTROLLER = EXAMPLES + "service-per-pod.yaml";

    /** The well-behaved decorator: one Service per replica, the label, and finalize once no Service is left. */
    static ObjectNode servicePerPod(JsonNode request) {
        JsonNode target = request.path("object");
        String name = target.at("/metadata/name").asText();
        ObjectNode response = Json.object();
        ArrayNode attachments = response.putArray("attachments");
        if (request.path("finalizing").asBoolean()) {
            response.put("finalized", request.at("/attachments/Service.v1").isEmpty());
            return response;
        }
        response.putObject("labels").put("service-per-pod/decorated", "true");
        int port = target.at("/metadata/annotations/service-per-pod-port").asInt();
        for (int i = 0; i < target.at("/spec/replicas").asInt(1); i++) {
            ObjectNode service = attachments.addObject().put("apiVersion", "v1").put("kind", "Service");
            service.putObject("metadata").put("name", name + "-" + i);
            ObjectNode spec = service.putObject("spec");
            spec.putObject("selector").put("statefulset.kubernetes.io/pod-name", name + "-" + i);
            spec.putArray("ports").addObject().put("port", 80).put("targetPort", port);
        }
        return response;
    }

    /** The decorator with customize: it asks for the ConfigMap {@code <name>-ports} and takes the target port from it. */
    static ObjectNode servicePerPodWithPorts(JsonNode request) {
        if (!request.has("object")) {
            ObjectNode response = Json.object();
            response.putArray("relatedResources").addObject().put("apiVersion", "v1").put("resource", "configmaps")
                    .putArray("names").add(request.at("/parent/metadata/name").asText() + "-ports");
            return response;
        }
        ObjectNode response = servicePerPod(request);
        JsonNode ports = request.at("/related/ConfigMap.v1").path(request.at("/object/metadata/name").asText() + "-ports");
        if (!ports.isMissingNode()) {
            response.path("attachments").forEach(service -> ((ObjectNode) service.at("/spec/ports/0")).put("targetPort",
                    ports.at("/data/targetPort").asInt()));
        }
        return response;
    }

    private record Result(int exit, String out, String err) {
        List<String> breaches() {
            return out.lines().filter(line -> line.startsWith("BREACH ")).toList();
        }
    }

    private static Result run(boolean check, List<String> args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream stdout = new PrintStream(out, true, StandardCharsets.UTF_8);
        int exit = Main.exitCode(() -> check ? CheckCommand.run(args, Map.of(), stdout)
                : RenderCommand.run(args, Map.of(), stdout, new PrintStream(err, true, StandardCharsets.UTF_8)));
        return new Result(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static Result withHook(Function<JsonNode, ScriptedHook.Answer> script, boolean check, String... args) {
        return withHook(CONTROLLER, script, check, args);
    }

    private static Result withHook(String controller, Function<JsonNode, ScriptedHook.Answer> script, boolean check, String... args) {
        try (ScriptedHook hook = new ScriptedHook(script)) {
            List<String> all = new ArrayList<>(List.of("--controller", controller, "--parent", EXAMPLES + "statefulset.yaml", "--url", hook.url()));
            all.addAll(List.of(args));
            return run(check, all);
        }
    }

    private static Result check(Function<JsonNode, ObjectNode> answer) {
        return withHook(request -> ScriptedHook.Answer.ok(answer.apply(request)), true, "--passes", "8");
    }

    private static void reports(Result result, String kind) {
        assertEquals(1, result.exit(), result.out());
        assertTrue(result.breaches().stream().anyMatch(line -> line.startsWith("BREACH " + kind + ":")), result.out());
    }

    @Test
    void rendersTheLabelsAndAttachments() throws Exception {
        Result result = withHook(request -> ScriptedHook.Answer.ok(servicePerPod(request)), false);
        assertEquals(0, result.exit(), result.err());
        JsonNode answer = new YAMLMapper().readTree(result.out());
        assertEquals("true", answer.at("/labels/service-per-pod~1decorated").asText());
        assertEquals(List.of("web-0", "web-1"), Stream.of(0, 1).map(i -> answer.at("/attachments/" + i + "/metadata/name").asText()).toList());
        assertTrue(answer.path("diff").isMissingNode(), "no patch without --observed");
    }

    @Test
    void showsThePatchOfTheTargetAndOfEachAttachment() throws Exception {
        Result result = withHook(request -> ScriptedHook.Answer.ok(servicePerPod(request)), false, "--observed", DIR + "attachments.yaml");
        assertEquals(0, result.exit(), result.err());
        JsonNode diff = new YAMLMapper().readTree(result.out()).path("diff");
        assertEquals(Json.parse(("[{\"op\":\"add\",\"path\":\"/metadata/labels\",\"value\":{\"service-per-pod/decorated\":\"true\"}}]").getBytes(StandardCharsets.UTF_8)),
                diff.get("StatefulSet.apps/v1 default/web"), diff.toString());
        assertEquals(0, diff.get("Service.v1 default/web-0").size(), "web-0 is as desired: " + diff);
        assertEquals(Json.parse(("[{\"op\":\"replace\",\"path\":\"/spec/ports/0/targetPort\",\"value\":8080}]").getBytes(StandardCharsets.UTF_8)),
                diff.get("Service.v1 default/web-1"), "the port changed by hand goes back: " + diff);
    }

    @Test
    void aWellBehavedDecoratorIsCleanThroughItsWholeLife() {
        Result result = withHook(request -> ScriptedHook.Answer.ok(servicePerPod(request)), true,
                "--updated-parent", DIR + "statefulset-scaled.yaml", "--passes", "8");
        assertEquals(0, result.exit(), result.out());
        assertTrue(result.out().startsWith("check: clean ("), result.out());
    }

    @Test
    void reportsADecoratorThatNeverLetsGo() {
        reports(check(request -> request.path("finalizing").asBoolean()
                ? servicePerPod(request).put("finalized", false) : servicePerPod(request)), "never-finalized");
    }

    /**
     * The life check drives includes the target losing the annotation the selector requires: finalize
     * is called (its attachments must go and it must say finalized), then the annotation comes back.
     */
    @Test
    void aTargetThatStopsMatchingIsFinalizedInTheCheckedLife() {
        List<JsonNode> calls = new ArrayList<>();
        Result result = withHook(request -> {
            calls.add(request);
            return ScriptedHook.Answer.ok(servicePerPod(request));
        }, true, "--passes", "8");
        assertEquals(0, result.exit(), result.out());
        JsonNode unselected = calls.stream().filter(call -> call.path("finalizing").asBoolean()
                && !call.at("/object/metadata/annotations").has("service-per-pod-port")).findFirst().orElseThrow();
        assertTrue(unselected.at("/object/metadata").path("deletionTimestamp").isMissingNode(), "finalize without deletion");
        assertEquals(2, unselected.at("/attachments/Service.v1").size(), unselected.toString());
    }

    @Test
    void reportsAttachmentsKeptWhenTheTargetStopsMatching() {
        reports(check(request -> request.path("finalizing").asBoolean() && !request.at("/object/metadata").has("deletionTimestamp")
                ? servicePerPod(((ObjectNode) request.deepCopy()).put("finalizing", false)).put("finalized", true)
                : servicePerPod(request)), "kept-attachments");
    }

    @Test
    void reportsAFinalizeThatLetsGoOnlyOnDeletion() {
        Result result = check(request -> request.path("finalizing").asBoolean()
                ? servicePerPod(request).put("finalized", request.at("/object/metadata").has("deletionTimestamp")) : servicePerPod(request));
        reports(result, "never-finalized");
        assertTrue(result.out().contains("the target unselected (annotation service-per-pod-port removed) still has the decorator's finalizer"),
                result.out());
    }

    @Test
    void saysWhenTheSelectorsDoNotSelectTheTarget() throws Exception {
        Path plain = Files.createTempFile("statefulset", ".yaml");
        Files.writeString(plain, Files.readString(Path.of(EXAMPLES + "statefulset.yaml")).replace("service-per-pod-port", "other-annotation"));
        try (ScriptedHook hook = new ScriptedHook(request -> ScriptedHook.Answer.ok(servicePerPod(request)))) {
            Result result = run(true, List.of("--controller", CONTROLLER, "--parent", plain.toString(), "--url", hook.url()));
            reports(result, "no-progress");
            assertTrue(result.out().contains("the DecoratorController's resources do not select this StatefulSet (annotationSelector"),
                    result.out());
        } finally {
            Files.delete(plain);
        }
    }

    @Test
    void reportsNullLabelsAndAnnotationsWithoutACrash() {
        Result nulls = check(request -> {
            ObjectNode answer = servicePerPod(request);
            answer.path("attachments").forEach(service -> ((ObjectNode) service.path("metadata")).putNull("labels").putNull("annotations"));
            return answer;
        });
        reports(nulls, "null-value");
        assertTrue(nulls.out().contains("/metadata/labels is null: Metacontroller applies the attachment without the labels, and as what it"
                + " stores never equals the answer, it updates the attachment on every sync"), nulls.out());
        assertFalse(nulls.out().contains("whole sync"), "a decorator's sync does not fail on it: " + nulls.out());
        Result topLevel = check(request -> {
            ObjectNode answer = servicePerPod(request);
            answer.putNull("annotations");
            return answer;
        });
        assertEquals(0, topLevel.exit(), "a null annotations map of the answer changes nothing: " + topLevel.out());
    }

    @Test
    void reportsAMisspelledAttachmentsField() {
        reports(check(request -> {
            ObjectNode answer = servicePerPod(request);
            answer.set("Attachments", answer.remove("attachments"));
            return answer;
        }), "unknown-field");
    }

    @Test
    void reportsAttachmentsLeftOutOnceTheyExist() {
        reports(check(request -> {
            ObjectNode answer = servicePerPod(request);
            if (!request.path("finalizing").asBoolean() && !request.at("/attachments/Service.v1").isEmpty()) {
                answer.putArray("attachments");
            }
            return answer;
        }), "deletes-children");
    }

    @Test
    void reportsFinalizedFromSync() {
        reports(check(request -> servicePerPod(request).put("finalized", true)), "finalized-in-sync");
    }

    @Test
    void reportsAnAttachmentWithoutKind() {
        reports(check(request -> {
            ObjectNode answer = servicePerPod(request);
            answer.path("attachments").forEach(service -> ((ObjectNode) service).remove("kind"));
            return answer;
        }), "missing-kind");
    }

    @Test
    void aDecoratorWithCustomizeReadsItsRelatedObjectsAndIsCleanWithThem() throws Exception {
        String controller = DIR + "decorator-with-customize.yaml";
        Function<JsonNode, ScriptedHook.Answer> hook = request -> ScriptedHook.Answer.ok(servicePerPodWithPorts(request));
        Result rendered = withHook(controller, hook, false, "--related", DIR + "ports.yaml");
        assertEquals(0, rendered.exit(), rendered.err());
        JsonNode answer = new YAMLMapper().readTree(rendered.out());
        assertEquals(9090, answer.at("/attachments/0/spec/ports/0/targetPort").asInt(), rendered.out());
        assertEquals("web-ports", answer.at("/related/ConfigMap.v1/0").asText(), "v1 key of a namespaced target: the name");
        Result checked = withHook(controller, hook, true, "--related", DIR + "ports.yaml", "--passes", "8");
        assertEquals(0, checked.exit(), checked.out());
        Result unselected = withHook(controller, hook, true, "--passes", "8");
        assertEquals(0, unselected.exit(), "a customize rule that selects nothing is the target's normal state: " + unselected.out());
    }

    @Test
    void aDecoratorThatRequiresItsRelatedObjectsIsReportedWithoutThem() throws Exception {
        Path required = Files.createTempFile("decorator-requires-related", ".yaml");
        Files.writeString(required, Files.readString(Path.of(DIR + "decorator-with-customize.yaml"))
                .replace("  name: service-per-pod-ports\n", "  name: service-per-pod-ports\n  annotations: {metahook.dev/requires-related: \"true\"}\n"));
        try {
            reports(withHook(required.toString(), request -> ScriptedHook.Answer.ok(servicePerPodWithPorts(request)), true, "--passes", "8"),
                    "no-related");
        } finally {
            Files.delete(required);
        }
    }

    @Test
    void reportsADecoratorThatAsksForRelatedObjectsAndIgnoresThem() {
        reports(withHook(DIR + "decorator-with-customize.yaml", request -> ScriptedHook.Answer.ok(request.has("object")
                ? servicePerPod(request) : servicePerPodWithPorts(request)), true, "--related", DIR + "ports.yaml", "--passes", "8"),
                "ignores-related");
    }
}
