package dev.metahook.testing;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs {@code helm} (v3, from the {@code PATH}: .ci/run installs a pinned one) on a chart: {@code helm lint} and
 * {@code helm template}. A missing or other helm fails the test with a message saying so, never a skip.
 */
public final class Helm {
    /** The helm .ci/run installs, and where. */
    public static final String PINNED = "v3.21.4 (.ci/run installs it into /var/cache/metahook-tools/helm-3.21.4)";
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
    public static Run templateRun(Path chart, String namespace, Map<String, String> values) {
        return run(templateCommand(chart, namespace, values));
    }

    private static List<String> templateCommand(Path chart, String namespace, Map<String, String> values) {
        List<String> command = new ArrayList<>(List.of(helm(), "template", "release", chart.toString(), "--namespace", namespace,
                "--include-crds"));
        values.forEach((key, value) -> command.addAll(List.of("--set", key + "=" + value)));
        return command;
    }

    private static String check(List<String> command) {
        Run run = run(command);
        if (run.exit() != 0) {
            throw new AssertionError(String.join(" ", command) + " failed:\n" + run.output());
        }
        return run.output();
    }

    private static synchronized String helm() {
        if (helm == null) {
            for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
                Path candidate = Path.of(dir.isEmpty() ? "." : dir, "helm");
                if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                    String version = run(List.of(candidate.toString(), "version", "--short")).output().trim();
                    if (!version.startsWith("v3.")) {
                        throw new AssertionError("the chart tests need helm v3; " + candidate + " is " + version + ". Pinned: " + PINNED);
                    }
                    helm = candidate.toString();
                    return helm;
                }
            }
            throw new AssertionError("the chart tests need helm v3 on the PATH, and there is none. Pinned: " + PINNED
                    + " (README, \"Run the tests\")");
        }
        return helm;
    }

    /** A command's exit code and its output (stdout and stderr). */
    public record Run(int exit, String output) {
    }

    private static Run run(List<String> command) {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            process.getOutputStream().close();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError(String.join(" ", command) + " did not end within 60 s");
            }
            return new Run(process.exitValue(), output);
        } catch (IOException e) {
            throw new AssertionError(String.join(" ", command) + " could not run: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while running " + String.join(" ", command), e);
        }
    }
}
