package dev.metahook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.xpath.XPathFactory;
import org.junit.jupiter.api.Test;

/** The command line's own words: {@code --version}, {@code help}, {@code serve --help}, each in a JVM of its own as a user runs it. */
class MainTest {
    private record Run(int exit, String output) {
    }

    private static Run main(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        command.addAll(List.of(args));
        // a server started by mistake would listen here, not on a port another test uses
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("PORT", "0");
        builder.environment().put("MANAGEMENT_PORT", "0");
        builder.environment().put("HOST", "127.0.0.1");
        Process process = builder.start();
        try {
            boolean ended = process.waitFor(60, TimeUnit.SECONDS);
            String output = ended ? new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8) : "";
            assertTrue(ended, String.join(" ", args) + " did not end: it started a server");
            return new Run(process.exitValue(), output);
        } finally {
            process.destroyForcibly();
        }
    }

    @Test
    void versionPrintsTheProjectsVersion() throws Exception {
        String version = XPathFactory.newInstance().newXPath().evaluate("/project/version",
                DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(Path.of("pom.xml").toFile()));
        assertTrue(!version.isBlank(), "the root pom has a version");
        for (String flag : List.of("--version", "version")) {
            Run run = main(flag);
            assertEquals(0, run.exit(), run.output());
            assertEquals("metahook " + version + "\n", run.output());
        }
    }

    @Test
    void serveHelpPrintsTheUsageAndStartsNoServer() throws Exception {
        for (String help : List.of("--help", "-h", "help")) {
            Run run = main("serve", help);
            assertEquals(0, run.exit(), run.output());
            assertTrue(run.output().startsWith("usage: java -jar metahook.jar [serve]\n"), run.output());
            assertTrue(run.output().contains("configured by the environment"), run.output());
            assertTrue(!run.output().contains("listening"), run.output());
        }
        Run option = main("serve", "--port", "9000");
        assertEquals(2, option.exit(), option.output());
        assertTrue(option.output().startsWith("metahook: serve takes no options, got --port"), option.output());
    }

    @Test
    void helpSaysWhatEachCommandDoes() throws Exception {
        Run run = main("help");
        assertEquals(0, run.exit(), run.output());
        for (String command : List.of("serve", "render", "check", "init", "help", "--version")) {
            assertTrue(run.output().lines().anyMatch(line -> line.matches("  " + command.replace("-", "\\-") + " +\\S.{20,}")),
                    "a line that says what " + command + " does:\n" + run.output());
        }
        assertTrue(run.output().contains(CheckCommand.USAGE), run.output());
    }
}
