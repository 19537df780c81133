package dev.metahook.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Commands the end-to-end tests run (kubectl, the control-plane script) against one kubeconfig, and
 * waiting. What a command prints is copied into the test JVM's {@code System.out} and
 * {@code System.err}, never left to write to the JVM's own descriptors: Failsafe talks to its forked
 * JVM over that standard output, and bytes written there behind its back are what it reports as a
 * corrupted channel.
 */
final class Commands {
    private final Path kubeconfig;

    Commands(Path kubeconfig) {
        this.kubeconfig = kubeconfig;
    }

    void run(Duration limit, String... command) throws Exception {
        assertEquals(0, exitCode(limit, command), String.join(" ", command));
    }

    int exitCode(Duration limit, String... command) throws Exception {
        Process process = start(new ProcessBuilder(command).redirectErrorStream(true));
        Thread out = copy(process.getInputStream(), System.out);
        boolean exited = process.waitFor(limit.toSeconds(), TimeUnit.SECONDS);
        if (!exited) {
            process.destroyForcibly();
        }
        out.join(TimeUnit.SECONDS.toMillis(10));
        return exited ? process.exitValue() : -1;
    }

    /** Runs a command that must succeed; what it wrote to standard output. */
    String output(Duration limit, String... command) throws Exception {
        Process process = start(new ProcessBuilder(command));
        Thread err = copy(process.getErrorStream(), System.err);
        byte[] out = process.getInputStream().readAllBytes();
        boolean exited = process.waitFor(limit.toSeconds(), TimeUnit.SECONDS);
        err.join(TimeUnit.SECONDS.toMillis(10));
        if (!exited || process.exitValue() != 0) {
            process.destroyForcibly();
            throw new AssertionError(String.join(" ", command) + " failed");
        }
        return new String(out, StandardCharsets.UTF_8);
    }

    private Process start(ProcessBuilder builder) throws IOException {
        if (Files.exists(kubeconfig)) {
            builder.environment().put("KUBECONFIG", kubeconfig.toString());
        }
        return builder.redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile())).start();
    }

    /** Copies what a command prints into one of this JVM's streams, until the command closes it. */
    private static Thread copy(InputStream from, PrintStream to) {
        Thread copier = new Thread(() -> {
            try (from) {
                byte[] buffer = new byte[8192];
                for (int read = from.read(buffer); read >= 0; read = from.read(buffer)) {
                    to.write(buffer, 0, read);
                    to.flush();
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }, "command output");
        copier.setDaemon(true);
        copier.start();
        return copier;
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
