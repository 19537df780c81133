package dev.metahook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.testkit.CheckReport;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** {@code check --format json|junit} and {@code --output}: the report CI servers and scripts read, with the content of the text. */
class CheckFormatTest {
    private static final Set<String> PHASES = Set.of("create", "converge", "at rest", "repeat", "related", "change", "409", "unselected",
            "selected again", "delete", "stalled", "life");

    @TempDir
    Path dir;

    private String file(String name, String text) throws Exception {
        Path file = dir.resolve(name);
        Files.writeString(file, text);
        return file.toString();
    }

    private String controller() throws Exception {
        return file("controller.yaml", """
                apiVersion: metacontroller.k8s.io/v1alpha1
                kind: CompositeController
                metadata: {name: widget-controller}
                spec:
                  generateSelector: true
                  parentResource: {apiVersion: test.metahook.dev/v1, resource: widgets}
                  childResources:
                  - {apiVersion: v1, resource: configmaps, updateStrategy: {method: InPlace}}
                  hooks:
                    sync: {webhook: {url: http://widgets.example/sync}}
                    finalize: {webhook: {url: http://widgets.example/finalize}}
                """);
    }

    private String parent(int size) throws Exception {
        return file("parent-" + size + ".yaml", """
                apiVersion: test.metahook.dev/v1
                kind: Widget
                metadata: {name: hello, namespace: default}
                spec: {size: %d}
                """.formatted(size));
    }

    private record Result(int exit, String out) {
    }

    private Result check(Function<com.fasterxml.jackson.databind.JsonNode, ScriptedHook.Answer> script, String... more) throws Exception {
        try (ScriptedHook hook = new ScriptedHook(script)) {
            List<String> args = new ArrayList<>(List.of("--controller", controller(), "--parent", parent(3), "--updated-parent", parent(4),
                    "--url", hook.url(), "--passes", "6"));
            args.addAll(List.of(more));
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            int exit = Main.exitCode(() -> CheckCommand.run(args, Map.of(), new PrintStream(out, true, StandardCharsets.UTF_8)));
            return new Result(exit, out.toString(StandardCharsets.UTF_8));
        }
    }

    /**
     * A hook whose finalize answers 500 with markup and a control character in its body (never finalized), and whose
     * sync is fine: breaches in the delete phase, clean phases before it.
     */
    private static ScriptedHook.Answer brokenFinalize(com.fasterxml.jackson.databind.JsonNode request) {
        return request.path("finalizing").asBoolean()
                ? new ScriptedHook.Answer(500, "{\"error\":\"<teardown> & \u0001 failed\"}", 0)
                : ScriptedHook.Answer.ok(ScriptedHook.wellBehaved(request));
    }

    /** A hook whose status counts its calls: non-deterministic and a hot loop, in several phases. */
    private static Function<com.fasterxml.jackson.databind.JsonNode, ScriptedHook.Answer> counting() {
        AtomicInteger calls = new AtomicInteger();
        return request -> {
            ObjectNode answer = ScriptedHook.wellBehaved(request);
            answer.withObjectProperty("status").put("syncs", calls.incrementAndGet());
            return ScriptedHook.Answer.ok(answer);
        };
    }

    @Test
    void jsonReadsBackIntoTheTypedReportAndSaysWhatTheTextSays() throws Exception {
        Path json = dir.resolve("reports/check.json");
        Result result = check(counting(), "--format", "json", "--output", json.toString());
        assertEquals(1, result.exit(), result.out());
        CheckReport report = new ObjectMapper().readValue(Files.readString(json), CheckReport.class);
        assertEquals(Files.readString(json), new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(report) + "\n",
                "the typed report written again is the same bytes: every field read back");
        assertEquals(result.out(), CheckFormat.text(report),
                "the text on stdout says what the JSON report says");
        assertEquals(result.out().lines().filter(line -> line.startsWith("BREACH ")).toList(),
                report.breaches().stream().map(breach -> "BREACH " + breach).toList());
        assertFalse(report.clean());
        assertTrue(report.breaches().stream().anyMatch(breach -> breach.kind().equals("hot-loop")), report::toString);
        for (CheckReport.Breach breach : report.breaches()) {
            assertTrue(Set.of("sync", "finalize", "customize").contains(breach.hook()), breach::toString);
            assertTrue(PHASES.contains(breach.phase()), breach::toString);
            assertEquals("Widget default/hello", breach.object(), breach::toString);
            assertFalse(breach.message().isEmpty(), breach::toString);
        }
        CheckReport.Breach repeated = report.breaches().stream().filter(breach -> breach.kind().equals("non-deterministic"))
                .findFirst().orElseThrow(() -> new AssertionError(report.toString()));
        assertEquals("repeat", repeated.phase());
        assertTrue(repeated.call() > 0, repeated::toString);
        assertEquals(report.calls(), report.phases().stream().mapToInt(CheckReport.Phase::calls).sum());
    }

    @Test
    void jsonGoesToStdoutWithoutOutput() throws Exception {
        Result result = check(request -> ScriptedHook.Answer.ok(ScriptedHook.wellBehaved(request)), "--format", "json");
        assertEquals(0, result.exit(), result.out());
        CheckReport report = new ObjectMapper().readValue(result.out(), CheckReport.class);
        assertTrue(report.clean(), report::toString);
        assertEquals(List.of("create", "converge", "at rest", "repeat", "change", "409", "delete", "stalled"),
                report.phases().stream().map(CheckReport.Phase::name).toList());
    }

    @Test
    void junitIsOneSuiteWithATestCasePerPhaseAndEveryBreachInAFailure() throws Exception {
        Path xml = dir.resolve("check.xml");
        Result result = check(CheckFormatTest::brokenFinalize, "--format", "junit", "--output", xml.toString());
        assertEquals(1, result.exit(), result.out());
        assertTrue(result.out().contains("BREACH status: finalize answered 500"), "the text still goes to stdout: " + result.out());
        List<String> printed = result.out().lines().filter(line -> line.startsWith("BREACH ")).toList();
        assertFalse(printed.isEmpty());

        Document document = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(new ByteArrayInputStream(Files.readAllBytes(xml)));
        Element suites = document.getDocumentElement();
        assertEquals("testsuites", suites.getTagName());
        NodeList suiteList = suites.getElementsByTagName("testsuite");
        assertEquals(1, suiteList.getLength());
        Element suite = (Element) suiteList.item(0);
        assertEquals("check widget-controller Widget default/hello", suite.getAttribute("name"));
        NodeList cases = suite.getElementsByTagName("testcase");
        assertEquals(Integer.toString(cases.getLength()), suite.getAttribute("tests"));
        List<String> names = new ArrayList<>();
        int failed = 0;
        StringBuilder failureTexts = new StringBuilder();
        for (int i = 0; i < cases.getLength(); i++) {
            Element testCase = (Element) cases.item(i);
            assertEquals("metahook.check", testCase.getAttribute("classname"));
            names.add(testCase.getAttribute("name"));
            NodeList failures = testCase.getElementsByTagName("failure");
            assertTrue(failures.getLength() <= 1, "one failure per test case");
            if (failures.getLength() == 1) {
                failed++;
                Element failure = (Element) failures.item(0);
                assertFalse(failure.getAttribute("message").isEmpty());
                assertTrue(Set.of("status", "never-finalized").contains(failure.getAttribute("type")), failure.getAttribute("type"));
                assertEquals("delete", testCase.getAttribute("name"));
                failureTexts.append(failure.getTextContent()).append('\n');
            }
        }
        assertEquals(List.of("create", "converge", "at rest", "repeat", "change", "409", "delete", "stalled"), names);
        assertEquals(1, failed);
        assertEquals(Integer.toString(failed), suite.getAttribute("failures"));
        for (String line : printed) {
            assertTrue(failureTexts.toString().contains(line.replace('\u0001', '\uFFFD')), "the failure carries " + line + ":\n" + failureTexts
                    + "\n" + Files.readString(xml));
        }
        assertTrue(failureTexts.toString().contains("<teardown> & \uFFFD failed"), failureTexts.toString());
        assertTrue(failureTexts.toString().contains("finalize call "), failureTexts.toString());
    }

    @Test
    void aCleanRunIsAPassingSuite() throws Exception {
        Result result = check(request -> ScriptedHook.Answer.ok(ScriptedHook.wellBehaved(request)), "--format", "junit");
        assertEquals(0, result.exit(), result.out());
        Document document = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(result.out().getBytes(StandardCharsets.UTF_8)));
        Element suite = (Element) document.getElementsByTagName("testsuite").item(0);
        assertEquals("0", suite.getAttribute("failures"));
        assertEquals(0, document.getElementsByTagName("failure").getLength());
        assertTrue(Integer.parseInt(suite.getAttribute("tests")) >= 5, suite.getAttribute("tests"));
    }

    @Test
    void anUnknownFormatIsAUsageError() throws Exception {
        PrintStream saved = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        Result result;
        try {
            result = check(request -> ScriptedHook.Answer.ok(ScriptedHook.wellBehaved(request)), "--format", "xml");
        } finally {
            System.setErr(saved);
        }
        assertEquals(2, result.exit());
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("--format must be text, json or junit, got 'xml'"), err.toString());
    }
}
