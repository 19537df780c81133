package dev.metahook.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The project's shell scripts (CI, the builds from the outside, the benchmarks, the tool builds) run under
 * {@code set -euo pipefail}. There a pipe whose last reader may stop early ({@code grep -q}, {@code grep -m},
 * {@code head}) fails whenever the writer is not done yet: the writer meets a closed pipe (SIGPIPE, status 141) and
 * the pipe's status is the writer's, so a listing that holds what was looked for fails the check now and then. The
 * scripts write such a listing to a file first, or read it whole ({@code sed -n 1p}).
 */
class ScriptPipesTest {
    private static final List<Path> ROOTS = List.of(Path.of(".ci"), Path.of("src"));
    private static final Pattern EARLY_READER = Pattern.compile(
            "(?<!\\|)\\|(?!\\|)\\s*(head\\b|grep(\\s[^|;&]*?)?\\s(-[a-zA-Z]*[qm][a-zA-Z]*\\b|--quiet\\b|--max-count\\b))");

    @Test
    void everyScriptRunsUnderPipefail() throws IOException {
        List<Path> scripts = scripts();
        assertTrue(scripts.size() >= 15, "found the scripts: " + scripts);
        for (Path script : scripts) {
            assertTrue(Files.readString(script, StandardCharsets.UTF_8).lines().anyMatch(line -> line.trim().equals("set -euo pipefail")),
                    script + " does not set -euo pipefail");
        }
    }

    @Test
    void noPipeEndsInAReaderThatMayStopEarly() throws IOException {
        List<String> found = new ArrayList<>();
        for (Path script : scripts()) {
            List<String> lines = commands(Files.readString(script, StandardCharsets.UTF_8));
            for (String line : lines) {
                if (stopsEarly(line)) {
                    found.add(script + ": " + line.trim());
                }
            }
        }
        assertEquals(List.of(), found, "pipes that fail when their reader stops before the writer is done");
    }

    @Test
    void theCheckFindsTheFormsThatFailAndPassesTheirMends() {
        assertTrue(stopsEarly("unzip -l target/app.jar | grep -q 'BOOT-INF/lib/starter'"));
        assertTrue(stopsEarly("if grep -E 'x' tree.txt | grep -v y | grep -q .; then"));
        assertTrue(stopsEarly("java -version 2>&1 | grep -qE 'version'"));
        assertTrue(stopsEarly("first=$(grep -n 'done' log | cut -d: -f1 | head -n 1)"));
        assertTrue(stopsEarly("grep -n x log | grep -m 1 y"));
        assertFalse(stopsEarly("grep -q 'BOOT-INF/lib/starter' \"$work/jar.txt\""));
        assertFalse(stopsEarly("first=$(grep -n -m 1 'done' log | cut -d: -f1 || true)"));
        assertFalse(stopsEarly("ls dir/*.jar | grep -v -E -- '-sources\\.jar$' | sed -n 1p"));
        assertFalse(stopsEarly("command -v go || grep -q x file"));
        assertFalse(stopsEarly("grep -E 'Tests run' log | grep -v 'Time elapsed' | awk '{n += $1} END {print n}'"));
    }

    private static boolean stopsEarly(String command) {
        return EARLY_READER.matcher(command).find();
    }

    /** The script's commands: comment lines dropped, lines continued with a backslash joined. */
    private static List<String> commands(String script) {
        List<String> commands = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : script.lines().toList()) {
            if (line.trim().startsWith("#")) {
                continue;
            }
            if (line.endsWith("\\")) {
                current.append(line, 0, line.length() - 1).append(' ');
                continue;
            }
            commands.add(current.append(line).toString());
            current.setLength(0);
        }
        if (!current.isEmpty()) {
            commands.add(current.toString());
        }
        return commands;
    }

    /** Every file under the roots, outside build output, whose first line runs bash or sh. */
    private static List<Path> scripts() throws IOException {
        List<Path> scripts = new ArrayList<>();
        for (Path root : ROOTS) {
            try (Stream<Path> files = Files.walk(root)) {
                files.filter(Files::isRegularFile)
                        .filter(file -> !file.toString().contains("/target/") && !file.toString().contains("/node_modules/"))
                        .filter(ScriptPipesTest::isShellScript)
                        .sorted()
                        .forEach(scripts::add);
            }
        }
        return scripts;
    }

    private static boolean isShellScript(Path file) {
        try {
            byte[] start = new byte[64];
            int read;
            try (var in = Files.newInputStream(file)) {
                read = in.readNBytes(start, 0, start.length);
            }
            String first = new String(start, 0, read, StandardCharsets.ISO_8859_1).lines().findFirst().orElse("");
            return first.startsWith("#!") && (first.contains("bash") || first.endsWith("/sh") || first.contains("/sh "));
        } catch (IOException e) {
            return false;
        }
    }
}
