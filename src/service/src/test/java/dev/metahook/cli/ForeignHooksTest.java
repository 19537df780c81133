package dev.metahook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The commands of docs/testing-hooks.md on the Python hooks of {@code examples/foreign-hooks}: a decorator and a
 * customize + related composite, checked clean through their whole life. Without python3 on the PATH every test of it fails, saying so.
 */
class ForeignHooksTest {
    private static final String DIR = "examples/foreign-hooks/";
    private static Process hooks;
    private static String url;

    @BeforeAll
    static void start() throws Exception {
        hooks = hooks("python3");
        String line = new BufferedReader(new InputStreamReader(hooks.getInputStream(), StandardCharsets.UTF_8)).readLine();
        assertNotNull(line, "hooks.py printed nothing");
        assertTrue(line.startsWith("listening on "), line);
        url = line.substring("listening on ".length());
    }

    /**
     * The hooks of examples/foreign-hooks run by this interpreter. One that is not on the PATH fails the class
     * (every test of it reported as failed), never skips it without a word: CI installs python3 (.ci/run).
     */
    static Process hooks(String interpreter) {
        try {
            return new ProcessBuilder(interpreter, DIR + "hooks.py", "0").redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new AssertionError(interpreter + " is not on the PATH (" + e.getMessage() + "): ForeignHooksTest runs the hooks of "
                    + DIR + " with it; install python3, as .ci/run does (README, Run the tests)", e);
        }
    }

    @Test
    void aMissingInterpreterFailsTheSuiteRatherThanSkippingIt() {
        AssertionError failed = org.junit.jupiter.api.Assertions.assertThrows(AssertionError.class, () -> hooks("python3-not-installed"));
        assertTrue(failed.getMessage().startsWith("python3-not-installed is not on the PATH ("), failed.getMessage());
    }

    @AfterAll
    static void stop() {
        if (hooks != null) {
            hooks.destroy();
        }
    }

    private static String check(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int exit = Main.exitCode(() -> CheckCommand.run(List.of(args), Map.of(), new PrintStream(out, true, StandardCharsets.UTF_8)));
        String output = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, exit, output);
        return output;
    }

    @Test
    void theDecoratorIsClean() {
        assertTrue(check("--controller", DIR + "service-per-pod.yaml", "--parent", DIR + "statefulset.yaml", "--url", url)
                .startsWith("check: clean ("));
    }

    @Test
    void theCustomizeAndRelatedCompositeIsClean() {
        assertTrue(check("--controller", DIR + "configmap-propagation.yaml", "--parent", DIR + "propagation.yaml",
                "--related", DIR + "related.yaml", "--url", url).startsWith("check: clean ("));
    }
}
