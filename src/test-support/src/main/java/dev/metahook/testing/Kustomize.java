package dev.metahook.testing;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahook.internal.wire.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Renders a kustomization directory as {@code kubectl apply -k} would, with a kustomize that knows
 * components and {@code resources:} directories outside the overlay: {@code kustomize build} when a
 * kustomize of at least {@link #MINIMUM_KUSTOMIZE} is on the {@code PATH} (.ci/run installs a pinned
 * one), otherwise {@code kubectl kustomize} when kubectl is at least 1.{@link #MINIMUM_KUBECTL_MINOR}.
 * An older kubectl (Debian 12's kubernetes-client is 1.20, whose built-in kustomize is v2) fails the
 * test with a message naming both minimums, not with kustomize's own puzzling error.
 */
public final class Kustomize {
    /** The oldest kustomize the manifest tests pass with. */
    public static final String MINIMUM_KUSTOMIZE = "v4.4.1";
    /** The first kubectl whose built-in kustomize is {@link #MINIMUM_KUSTOMIZE}. */
    public static final int MINIMUM_KUBECTL_MINOR = 23;
    private static final Pattern VERSION = Pattern.compile("v(\\d+)\\.(\\d+)\\.(\\d+)");
    private static List<String> command;

    private Kustomize() {
    }

    /** The YAML the kustomization in {@code dir} renders to; fails the test with kustomize's output when it cannot. */
    public static String build(Path dir) {
        List<String> build = new ArrayList<>(command());
        build.add(dir.toString());
        Tools.Run run = Tools.run(build);
        if (run.exit() != 0) {
            throw new AssertionError(String.join(" ", build) + " failed:\n" + run.output());
        }
        return run.output();
    }

    private static synchronized List<String> command() {
        if (command == null) {
            command = find();
        }
        return command;
    }

    private static List<String> find() {
        StringBuilder found = new StringBuilder();
        Optional<Path> kustomize = Tools.onPath("kustomize");
        if (kustomize.isPresent()) {
            String version = Tools.run(List.of(kustomize.get().toString(), "version")).output().trim();
            if (atLeast(version, MINIMUM_KUSTOMIZE)) {
                return List.of(kustomize.get().toString(), "build");
            }
            found.append("kustomize ").append(kustomize.get()).append(" (").append(version).append("); ");
        } else {
            found.append("no kustomize; ");
        }
        Optional<Path> kubectl = Tools.onPath("kubectl");
        if (kubectl.isPresent()) {
            String version = Tools.run(List.of(kubectl.get().toString(), "version", "--client", "-o", "json")).output();
            if (kubectlMinor(version) >= MINIMUM_KUBECTL_MINOR) {
                return List.of(kubectl.get().toString(), "kustomize");
            }
            found.append("kubectl ").append(kubectl.get()).append(" (").append(gitVersion(version)).append(", whose built-in kustomize")
                    .append(" knows no components)");
        } else {
            found.append("no kubectl");
        }
        throw new AssertionError("the manifest tests need kustomize " + MINIMUM_KUSTOMIZE + " or newer on the PATH, or kubectl 1."
                + MINIMUM_KUBECTL_MINOR + " or newer (for kubectl kustomize); found " + found
                + ". .ci/run installs a pinned kustomize (README, \"Run the tests\")");
    }

    static boolean atLeast(String version, String minimum) {
        Matcher have = VERSION.matcher(version);
        Matcher need = VERSION.matcher(minimum);
        if (!have.find() || !need.find()) {
            return false;
        }
        for (int part = 1; part <= 3; part++) {
            int difference = Integer.compare(Integer.parseInt(have.group(part)), Integer.parseInt(need.group(part)));
            if (difference != 0) {
                return difference > 0;
            }
        }
        return true;
    }

    /** The minor version of a 1.x kubectl from {@code kubectl version --client -o json}; -1 when it says none. */
    private static int kubectlMinor(String json) {
        try {
            JsonNode client = Json.parse(json.getBytes(StandardCharsets.UTF_8)).path("clientVersion");
            return client.path("major").asText().equals("1") ? Integer.parseInt(client.path("minor").asText().replaceAll("\\D", "")) : -1;
        } catch (RuntimeException notJson) {
            return -1;
        }
    }

    private static String gitVersion(String json) {
        try {
            return Json.parse(json.getBytes(StandardCharsets.UTF_8)).path("clientVersion").path("gitVersion").asText("unknown version");
        } catch (RuntimeException notJson) {
            return json.trim();
        }
    }

}
