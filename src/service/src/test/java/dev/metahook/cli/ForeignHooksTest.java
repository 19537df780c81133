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
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The commands of docs/testing-hooks.md on the Python hooks of {@code examples/foreign-hooks}: a decorator and a
 * customize + related composite, checked clean through their whole life. Skipped without python3.
 */
class ForeignHooksTest {
    private static final String DIR = "examples/foreign-hooks/";
    private static Process hooks;
    private static String url;

    @BeforeAll
    static void start() throws Exception {
        try {
            hooks = new ProcessBuilder("python3", DIR + "hooks.py", "0").redirectErrorStream(true).start();
        } catch (IOException e) {
            Assumptions.abort("python3 is not installed: " + e.getMessage());
        }
        String line = new BufferedReader(new InputStreamReader(hooks.getInputStream(), StandardCharsets.UTF_8)).readLine();
        assertNotNull(line, "hooks.py printed nothing");
        assertTrue(line.startsWith("listening on "), line);
        url = line.substring("listening on ".length());
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
