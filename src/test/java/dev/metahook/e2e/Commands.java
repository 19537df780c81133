package dev.metahook.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
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

    /**
     * Runs a command with no input, its output copied to the test's standard error: the forked test
     * JVM's own standard streams are Failsafe's channel, and a child writing to them directly corrupts it.
     */
    int exitCode(Duration limit, String... command) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        if (Files.exists(kubeconfig)) {
            builder.environment().put("KUBECONFIG", kubeconfig.toString());
        }
        Process process = builder.start();
        process.getOutputStream().close();
        Thread copy = new Thread(() -> {
            try (InputStream output = process.getInputStream()) {
                output.transferTo(System.err);
            } catch (IOException gone) {
                // the process was destroyed
            }
        }, "output of " + command[0]);
        copy.setDaemon(true);
        copy.start();
        if (!process.waitFor(limit.toSeconds(), TimeUnit.SECONDS)) {
            process.destroyForcibly();
            return -1;
        }
        copy.join(TimeUnit.SECONDS.toMillis(10));
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
