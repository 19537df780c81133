package dev.metahook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;

/**
 * The GitHub Actions and GitLab CI jobs of docs/testing-hooks.md ("check in CI"): valid YAML with what each CI server
 * needs (the report {@code check} writes is the one published, and published when the check fails), and their
 * {@code check} command, run against the Python hook they start, writes a JUnit report of a clean run.
 */
class CiJobsTest {
    private static final Path PAGE = Path.of("docs/testing-hooks.md");
    private static final Pattern YAML_BLOCK = Pattern.compile("```yaml\n(.*?)```", Pattern.DOTALL);
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static Process hook;
    private static String url;

    @TempDir
    Path dir;

    @BeforeAll
    static void startTheHook() throws IOException {
        try {
            hook = new ProcessBuilder("python3", "examples/foreign-hooks/hooks.py", "0").redirectErrorStream(true).start();
        } catch (IOException e) {
            fail("python3 is needed to run the CI jobs' hook (.ci/run installs it): " + e.getMessage());
        }
        String line = new BufferedReader(new InputStreamReader(hook.getInputStream(), StandardCharsets.UTF_8)).readLine();
        assertNotNull(line, "hooks.py printed nothing");
        assertTrue(line.startsWith("listening on "), line);
        url = line.substring("listening on ".length());
    }

    @AfterAll
    static void stop() {
        if (hook != null) {
            hook.destroy();
        }
    }

    /** The page's YAML block that holds {@code marker}, parsed. */
    private static JsonNode job(String marker) throws IOException {
        String page = Files.readString(PAGE);
        String section = page.substring(page.indexOf("## check in CI"), page.indexOf("## The breaches"));
        Matcher block = YAML_BLOCK.matcher(section);
        while (block.find()) {
            if (block.group(1).contains(marker)) {
                return YAML.readTree(block.group(1));
            }
        }
        throw new AssertionError(PAGE + " has no YAML block with " + marker + " in its CI section");
    }

    /** The words of a {@code java -jar .../metahook.jar check ...} command after {@code check}. */
    private static List<String> checkArguments(String command) {
        List<String> words = Arrays.asList(command.trim().split("\\s+"));
        assertEquals("java", words.get(0), command);
        assertTrue(words.get(2).endsWith("/target/metahook.jar") && words.get(3).equals("check"), command);
        return words.subList(4, words.size());
    }

    private static String option(List<String> args, String name) {
        int at = args.indexOf(name);
        assertTrue(at >= 0 && at + 1 < args.size(), "the command gives " + name + ": " + args);
        return args.get(at + 1);
    }

    /** Runs the job's check as written, but for its hook's URL (the test's hook) and the report written under {@code dir}. */
    private void runs(List<String> args, String published) throws Exception {
        String output = option(args, "--output");
        assertEquals("junit", option(args, "--format"));
        assertTrue(FileSystems.getDefault().getPathMatcher("glob:" + published).matches(Path.of(output)),
                "the report " + output + " is the one published, " + published);
        assertEquals("http://127.0.0.1:8090", option(args, "--url"));
        assertTrue(Files.isRegularFile(Path.of(option(args, "--controller"))) && Files.isRegularFile(Path.of(option(args, "--parent"))), args.toString());
        List<String> here = new ArrayList<>(args);
        here.set(here.indexOf("--url") + 1, url);
        Path report = dir.resolve(output);
        here.set(here.indexOf("--output") + 1, report.toString());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int exit = Main.exitCode(() -> CheckCommand.run(here, Map.of(), new PrintStream(out, true, StandardCharsets.UTF_8)));
        assertEquals(0, exit, out.toString(StandardCharsets.UTF_8));
        Element suite = (Element) DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(report.toFile())
                .getElementsByTagName("testsuite").item(0);
        assertEquals("0", suite.getAttribute("failures"));
        assertTrue(Integer.parseInt(suite.getAttribute("tests")) > 3, suite.getAttribute("tests"));
    }

    @Test
    void theGitHubActionsJobChecksTheHookAndPublishesItsReportEvenWhenTheCheckFails() throws Exception {
        JsonNode job = job("runs-on:").path("jobs").path("check");
        assertEquals("write", job.at("/permissions/checks").asText(), "the report action writes a check run");
        JsonNode steps = job.path("steps");
        String check = null;
        String hookStart = null;
        JsonNode publish = null;
        for (JsonNode step : steps) {
            assertTrue(step.has("uses") != step.has("run"), "a step uses an action or runs a command: " + step);
            String run = step.path("run").asText("");
            if (run.contains("metahook.jar check")) {
                check = run;
            }
            if (run.contains("examples/foreign-hooks/hooks.py")) {
                hookStart = run;
            }
            if (step.path("uses").asText().startsWith("mikepenz/action-junit-report@")) {
                publish = step;
            }
        }
        assertNotNull(check, "a step runs check");
        assertNotNull(hookStart, "a step starts the hook");
        assertTrue(hookStart.contains("hooks.py 8090") && hookStart.contains("&"), hookStart);
        assertNotNull(publish, "a step publishes the report");
        assertEquals("${{ always() }}", publish.path("if").asText(), "published when check fails too");
        assertTrue(steps.toString().contains("-f metahook/pom.xml") && check.startsWith("java -jar metahook/target/metahook.jar"),
                "the jar run is the one built: " + check);
        runs(checkArguments(check), publish.at("/with/report_paths").asText());
    }

    @Test
    void theGitLabJobChecksTheHookAndKeepsItsReportEvenWhenTheCheckFails() throws Exception {
        JsonNode job = job("artifacts:").path("hook-contract");
        assertTrue(job.path("image").asText().contains("temurin-17"), job.toString());
        String check = null;
        for (JsonNode line : job.path("script")) {
            if (line.asText().contains("metahook.jar check")) {
                check = line.asText();
            }
        }
        assertNotNull(check, "the script runs check");
        assertTrue(job.path("before_script").toString().contains("-f /tmp/metahook/pom.xml")
                && check.startsWith("java -jar /tmp/metahook/target/metahook.jar"), "the jar run is the one built: " + check);
        assertEquals("always", job.at("/artifacts/when").asText(), "kept when check fails too");
        runs(checkArguments(check), job.at("/artifacts/reports/junit").asText());
    }
}
