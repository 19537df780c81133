package dev.metahook.testing;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Runs {@code helm} (v3, from the {@code PATH}: .ci/run installs a pinned one) on a chart: {@code helm lint} and
 * {@code helm template}. A missing or other helm fails the test with a message saying so, never a skip.
 */
public final class Helm {
    /** The helm .ci/run installs, and where. */
    public static final String PINNED = "v3.21.4 (`bash src/tools/build helm` builds it and prints its directory)";
    private static String helm;

    private Helm() {
    }

    /** {@code helm lint --strict} with these values; fails the test with helm's output unless it passes. */
    public static String lint(Path chart, Map<String, String> values) {
        List<String> command = new ArrayList<>(List.of(helm(), "lint", "--strict", chart.toString()));
        values.forEach((key, value) -> command.addAll(List.of("--set", key + "=" + value)));
        return check(command);
    }

    /** What {@code helm template} renders (CRDs included) into this namespace with these values. */
    public static String template(Path chart, String namespace, Map<String, String> values) {
        return check(templateCommand(chart, namespace, values));
    }

    /** The exit code and output of {@code helm template}, for a chart that should refuse the values. */
    public static Tools.Run templateRun(Path chart, String namespace, Map<String, String> values) {
        return Tools.run(templateCommand(chart, namespace, values));
    }

    private static List<String> templateCommand(Path chart, String namespace, Map<String, String> values) {
        List<String> command = new ArrayList<>(List.of(helm(), "template", "release", chart.toString(), "--namespace", namespace,
                "--include-crds"));
        values.forEach((key, value) -> command.addAll(List.of("--set", key + "=" + value)));
        return command;
    }

    private static String check(List<String> command) {
        Tools.Run run = Tools.run(command);
        if (run.exit() != 0) {
            throw new AssertionError(String.join(" ", command) + " failed:\n" + run.output());
        }
        return run.output();
    }

    private static synchronized String helm() {
        if (helm == null) {
            Path candidate = Tools.onPath("helm").orElseThrow(() -> new AssertionError(
                    "the chart tests need helm v3 on the PATH, and there is none. Pinned: " + PINNED + " (README, \"Run the tests\")"));
            String version = Tools.run(List.of(candidate.toString(), "version", "--short")).output().trim();
            if (!version.startsWith("v3.")) {
                throw new AssertionError("the chart tests need helm v3; " + candidate + " is " + version + ". Pinned: " + PINNED);
            }
            helm = candidate.toString();
        }
        return helm;
    }
}
