package dev.metahook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.metahook.testing.TestServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code check --url} is clean on every composite example, spec change included, served as METAHOOK_EXAMPLES=true serves them. */
class ExamplesCheckTest {
    private static TestServer server;

    @TempDir
    Path dir;

    @BeforeAll
    static void start() {
        server = TestServer.start(BuiltInControllers.all("a key for the examples check".getBytes(), Map.of("METAHOOK_EXAMPLES", "true")));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void blueGreenIsCleanThroughARollout() throws Exception {
        assertClean("bluegreen", "my-bluegreen.yaml", "component: frontend\n    spec:", "component: frontend\n        release: two\n    spec:");
    }

    /**
     * A new image rolls through the pods (RollingRecreate). A scale-down is left out on purpose: the
     * original removes one pod per sync for the same spec, highest ordinal first, and check, which
     * sees only the wire, takes a child answered before and left out later for the same generation
     * for an accidental deletion (deletes-children). CatSetTest covers the scale-down.
     */
    @Test
    void catSetIsCleanThroughANewImage() throws Exception {
        assertClean("catset", "my-catset.yaml", "nginx-unprivileged:1.27-alpine", "nginx-unprivileged:1.28-alpine");
    }

    @Test
    void configMapPropagationIsClean() throws Exception {
        assertClean("configmappropagation", "configmappropagation.yaml", "settings: wanted", "settings: chosen");
    }

    private void assertClean(String example, String parent, String from, String to) throws Exception {
        Path original = Path.of("examples", example, parent);
        String text = Files.readString(original);
        assertTrue(text.contains(from), from);
        Path updated = dir.resolve(parent);
        Files.writeString(updated, text.replace(from, to));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int exit = Main.exitCode(() -> CheckCommand.run(List.of("--controller", "examples/" + example + "/controller.yaml",
                "--parent", original.toString(), "--updated-parent", updated.toString(), "--url", server.url("")),
                Map.of(), new PrintStream(out, true, StandardCharsets.UTF_8)));
        String output = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, exit, output);
        assertTrue(output.startsWith("check: clean ("), output);
    }
}
