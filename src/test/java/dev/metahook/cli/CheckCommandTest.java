package dev.metahook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.testing.TestServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code check} against metahook's own controllers (clean) and against hooks broken one way each (reported). */
class CheckCommandTest {
    private static final String PARENT = """
            apiVersion: test.metahook.dev/v1
            kind: Widget
            metadata: {name: hello, namespace: default}
            spec: {size: 3}
            """;

    @TempDir
    Path dir;

    private String file(String name, String text) throws Exception {
        Path file = dir.resolve(name);
        Files.writeString(file, text);
        return file.toString();
    }

    private String controller(String extra, boolean generateSelector) throws Exception {
        return file("controller.yaml", """
                apiVersion: metacontroller.k8s.io/v1alpha1
                kind: CompositeController
                metadata: {name: widget-controller}
                spec:
                  generateSelector: %s
                  parentResource: {apiVersion: test.metahook.dev/v1, resource: widgets}
                  childResources:
                  - {apiVersion: v1, resource: configmaps, updateStrategy: {method: InPlace}}
                  hooks:
                    sync: {webhook: {url: http://widgets.example/sync%s}}
                    finalize: {webhook: {url: http://widgets.example/finalize%s}}
                """.formatted(generateSelector, extra, extra));
    }

    private record Result(int exit, String output) {
        List<String> breaches() {
            return output.lines().filter(line -> line.startsWith("BREACH ")).toList();
        }
    }

    private Result check(Function<JsonNode, ScriptedHook.Answer> script) throws Exception {
        return check(script, controller("", true), PARENT);
    }

    private Result check(Function<JsonNode, ScriptedHook.Answer> script, String controller, String parent) throws Exception {
        try (ScriptedHook hook = new ScriptedHook(script)) {
            return run(List.of("--controller", controller, "--parent", file("parent.yaml", parent), "--url", hook.url(), "--passes", "8"));
        }
    }

    private static Result run(List<String> args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int exit = Main.exitCode(() -> CheckCommand.run(args, Map.of(), new PrintStream(out, true, StandardCharsets.UTF_8)));
        return new Result(exit, out.toString(StandardCharsets.UTF_8));
    }

    private static void reports(Result result, String kind) {
        assertEquals(1, result.exit(), result.output());
        assertTrue(result.breaches().stream().anyMatch(line -> line.startsWith("BREACH " + kind + ":")), result.output());
    }

    @Test
    void aWellBehavedHookInAnotherLanguageIsClean() throws Exception {
        Result result = check(request -> ScriptedHook.Answer.ok(ScriptedHook.wellBehaved(request)));
        assertEquals(0, result.exit(), result.output());
        assertTrue(result.output().startsWith("check: clean ("), result.output());
    }

    @Test
    void metahooksOwnControllersAreCleanOverHttp() throws Exception {
        try (TestServer server = TestServer.start(dev.metahook.cli.BuiltInControllers.all("a key for the check command test".getBytes()))) {
            String webAppV2 = file("webapp-v2.yaml", Files.readString(Path.of("examples/webapp.yaml")).replace("1.4.2", "1.5.0"));
            Result webApp = run(List.of("--controller", "metacontroller/webapp-controller.yaml", "--parent", "examples/webapp.yaml",
                    "--updated-parent", webAppV2, "--url", server.url("")));
            assertEquals(0, webApp.exit(), webApp.output());
            Result database = run(List.of("--controller", "metacontroller/database-controller.yaml", "--parent", "examples/database.yaml",
                    "--url", server.url("")));
            assertEquals(0, database.exit(), database.output());
        }
    }

    @Test
    void reportsNonDeterministicOutput() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        reports(check(request -> {
            ObjectNode answer = ScriptedHook.wellBehaved(request);
            answer.with("status").put("lastSync", "call-" + calls.incrementAndGet());
            return ScriptedHook.Answer.ok(answer);
        }), "non-deterministic");
    }

    @Test
    void reportsAHotLoop() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        reports(check(request -> {
            ObjectNode answer = ScriptedHook.wellBehaved(request);
            answer.with("status").put("syncs", calls.incrementAndGet());
            return ScriptedHook.Answer.ok(answer);
        }), "hot-loop");
    }

    @Test
    void reportsAnAnswerThatDependsOnKeyOrder() throws Exception {
        reports(check(request -> {
            ObjectNode answer = ScriptedHook.wellBehaved(request);
            answer.with("status").put("firstField", request.fieldNames().next());
            return ScriptedHook.Answer.ok(answer);
        }), "non-deterministic");
    }

    @Test
    void reportsIntegersWrittenAsDecimals() throws Exception {
        reports(check(request -> new ScriptedHook.Answer(200,
                ScriptedHook.wellBehaved(request).toString().replace("\"configMaps\":0", "\"configMaps\":0.0")
                        .replace("\"configMaps\":1", "\"configMaps\":1.0"), 0)), "decimal");
    }

    @Test
    void reportsNullsInChildren() throws Exception {
        reports(check(request -> {
            ObjectNode answer = ScriptedHook.wellBehaved(request);
            answer.path("children").forEach(child -> ((ObjectNode) child.get("metadata")).putNull("creationTimestamp"));
            return ScriptedHook.Answer.ok(answer);
        }), "null");
    }

    @Test
    void reportsAChildWithoutKind() throws Exception {
        reports(check(request -> {
            ObjectNode answer = ScriptedHook.wellBehaved(request);
            answer.path("children").forEach(child -> ((ObjectNode) child).remove("kind"));
            return ScriptedHook.Answer.ok(answer);
        }), "missing-kind");
    }

    @Test
    void reportsLabelsThatMissTheSelector() throws Exception {
        String parent = PARENT.replace("spec: {size: 3}", "spec: {size: 3, selector: {matchLabels: {app: other}}}");
        reports(check(request -> ScriptedHook.Answer.ok(ScriptedHook.wellBehaved(request)), controller("", false), parent), "selector");
    }

    @Test
    void reportsAMisspelledChildrenKey() throws Exception {
        reports(check(request -> {
            ObjectNode answer = ScriptedHook.wellBehaved(request);
            answer.set("Children", answer.remove("children"));
            return ScriptedHook.Answer.ok(answer);
        }), "unknown-field");
    }

    @Test
    void reportsChildrenDeletedByAnOmission() throws Exception {
        reports(check(request -> {
            ObjectNode answer = ScriptedHook.wellBehaved(request);
            if (request.at("/children/ConfigMap.v1").size() > 0 && !request.path("finalizing").asBoolean()) {
                answer.putArray("children");
            }
            return ScriptedHook.Answer.ok(answer);
        }), "deletes-children");
    }

    @Test
    void reportsFinalizedOutsideFinalize() throws Exception {
        reports(check(request -> ScriptedHook.Answer.ok(ScriptedHook.wellBehaved(request).put("finalized", true))), "finalized-in-sync");
    }

    @Test
    void reportsAFinalizeThatNeverFinishes() throws Exception {
        reports(check(request -> ScriptedHook.Answer.ok(ScriptedHook.wellBehaved(request).put("finalized", false))), "never-finalized");
    }

    @Test
    void reportsErrorStatusCodes() throws Exception {
        reports(check(request -> request.path("finalizing").asBoolean()
                ? new ScriptedHook.Answer(500, "{\"error\":\"boom\"}", 0)
                : ScriptedHook.Answer.ok(ScriptedHook.wellBehaved(request))), "status");
    }

    @Test
    void reportsAnswersSlowerThanTheTimeout() throws Exception {
        String slow = controller("", true);
        Files.writeString(Path.of(slow), Files.readString(Path.of(slow)).replace("/sync}}", "/sync, timeout: 1s}}"));
        try (ScriptedHook hook = new ScriptedHook(request -> new ScriptedHook.Answer(200, ScriptedHook.wellBehaved(request).toString(), 1500))) {
            Result timedOut = run(List.of("--controller", slow, "--parent", file("p.yaml", PARENT), "--url", hook.url(), "--passes", "3"));
            reports(timedOut, "no-answer");
            assertTrue(timedOut.output().contains("timed out after 1 s"), timedOut.output());
        }
    }

    @Test
    void saysWhatIsWrongWithABadFileWithoutAStackTrace() throws Exception {
        Result missing = run(List.of("--controller", "metacontroller/webapp-controller.yaml", "--parent", dir.resolve("none.yaml").toString()));
        assertEquals(2, missing.exit());
        String noName = file("noname.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {}\n");
        assertEquals(2, run(List.of("--controller", noName, "--parent", noName)).exit());
        assertEquals(2, run(List.of("--controller", "metacontroller/webapp-controller.yaml")).exit());
    }
}
