package dev.metahook.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/** Commands the end-to-end tests run (kubectl, the control-plane script) against one kubeconfig, and waiting. */
final class Commands {
    private final Path kubeconfig;

    Commands(Path kubeconfig) {
        this.kubeconfig = kubeconfig;
    }

    void run(Duration limit, String... command) throws Exception {
        assertEquals(0, exitCode(limit, command), String.join(" ", command));
    }

    int exitCode(Duration limit, String... command) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(command).inheritIO();
        if (Files.exists(kubeconfig)) {
            builder.environment().put("KUBECONFIG", kubeconfig.toString());
        }
        Process process = builder.start();
        if (!process.waitFor(limit.toSeconds(), TimeUnit.SECONDS)) {
            process.destroyForcibly();
            return -1;
        }
        return process.exitValue();
    }

    /** Runs a command that must succeed; what it wrote to standard output. */
    String output(Duration limit, String... command) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT);
        if (Files.exists(kubeconfig)) {
            builder.environment().put("KUBECONFIG", kubeconfig.toString());
        }
        Process process = builder.start();
        byte[] out = process.getInputStream().readAllBytes();
        if (!process.waitFor(limit.toSeconds(), TimeUnit.SECONDS) || process.exitValue() != 0) {
            process.destroyForcibly();
            throw new AssertionError(String.join(" ", command) + " failed");
        }
        return new String(out, StandardCharsets.UTF_8);
    }

    /** Waits until the check holds, polling; fails saying what did not happen. */
    static void waitFor(Duration limit, String what, Rig.Check check) throws Exception {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!check.holds()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(what + ": not within " + limit.toSeconds() + " s");
            }
            Thread.sleep(200);
        }
    }
}
