package dev.metahook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code check} on the CatSet example (RollingRecreate pods): a rollout that gets to the latest revision, and one that never does. */
class RolloutCheckTest {
    @TempDir
    Path dir;

    private String check(String from, String to, String... options) throws Exception {
        String parent = Files.readString(Path.of("examples/catset/my-catset.yaml"));
        Path updated = dir.resolve("updated.yaml");
        Files.writeString(updated, parent.replace(from, to));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        List<String> args = new java.util.ArrayList<>(List.of("--controller", "examples/catset/controller.yaml",
                "--parent", "examples/catset/my-catset.yaml", "--updated-parent", updated.toString()));
        args.addAll(List.of(options));
        int exit = Main.exitCode(() -> CheckCommand.run(args,
                Map.of("METAHOOK_EXAMPLES", "true"), new PrintStream(out, true, StandardCharsets.UTF_8)));
        return exit + " " + out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aNewImageRollsOutCleanOnAMetacontrollerThatFindsItsPodsAndTheCallRatesArePrinted() throws Exception {
        String output = check("nginx-unprivileged:1.27-alpine", "nginx-unprivileged:1.28-alpine", "--metacontroller-version", "v4.10.2");
        assertTrue(output.startsWith("0 check: clean ("), output);
        assertTrue(output.contains("\ncalls per simulated minute: 0 at rest, "), output);
        assertTrue(output.endsWith("checked on Kubernetes 1.29-1.37, Metacontroller v4.10.2\n"), output);
    }

    /** The newest Metacontroller never finds the first pod it moved: check reports that, not a rollout it will not make. */
    @Test
    void onMetacontroller4172TheRolloutStallsAndCheckSaysWhoseItIsAndWhatToDo() throws Exception {
        for (String[] options : new String[][] {{}, {"--metacontroller-version", "4.17.2"}}) {
            String output = check("nginx-unprivileged:1.27-alpine", "nginx-unprivileged:1.28-alpine", options);
            List<String> breaches = output.lines().filter(line -> line.contains("BREACH")).toList();
            assertEquals(1, breaches.size(), output);
            assertTrue(breaches.get(0).startsWith("1 BREACH metacontroller-stalls-rollout: after spec change, Metacontroller v4.17.2"
                    + " (every release from v4.10.3 on) moved Pod nginx-backend-2 to the latest revision and then never finds it"), output);
            assertTrue(breaches.get(0).endsWith("use updateStrategy OnDelete or Recreate for that type, or a cluster-scoped child type,"
                    + " or Metacontroller v4.10.2 or older"), output);
        }
    }

    /** The new pods wait for a readiness gate nobody sets: Metacontroller never moves past the first. */
    @Test
    void aRolloutWhoseNewPodsNeverBecomeReadyIsReported() throws Exception {
        String output = check("      terminationGracePeriodSeconds: 10", "      terminationGracePeriodSeconds: 10\n"
                + "      readinessGates:\n      - conditionType: example.com/load-balancer-attached", "--metacontroller-version", "4.10.2");
        assertEquals("1 BREACH rollout-stuck: after spec change, the rollout never reached the latest revision: the parent's Updated"
                + " condition is RolloutWaiting: child Pod nginx-backend-2 failed status check: \"Ready\" condition status is \"False\""
                + " (want \"True\")", output.lines().findFirst().orElseThrow());
    }
}
