package dev.metahook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The image's training run ({@code src/image/train}, as the Dockerfile runs it) on the jar the build
 * made: it writes the class archive and starts the service from it with -Xshare:on; and when the
 * archive no longer fits the jar (here the jar is touched after training, as if replaced), it fails,
 * so the image build fails instead of shipping an archive the JVM silently ignores.
 */
class ClassArchiveIT {

    private record Run(int exit, String output) {
    }

    @Test
    void writesTheArchiveAndStartsTheServiceFromIt(@TempDir Path dir) throws Exception {
        Path jar = jar(dir);
        Path archive = dir.resolve("metahook.jsa");
        int port = freePort();
        Run run = train(dir, jar, archive, port, System.getenv("PATH"));
        assertEquals(0, run.exit(), run.output());
        assertTrue(Files.size(archive) > 1_000_000, "an archive of the loaded classes");
        assertTrue(run.output().contains("on 127.0.0.1:" + port), "the training service binds loopback on its own port");
        assertTrue(run.output().contains("check: clean"), run.output());
        assertTrue(run.output().contains("used to start the service"), run.output());
        assertTrue(Files.notExists(dir.resolve("training/database-key")), "the training key is not left in the image");
    }

    @Test
    void failsWhenTheServiceCannotStartFromTheArchive(@TempDir Path dir) throws Exception {
        Path jar = jar(dir);
        Path bin = Files.createDirectories(dir.resolve("bin"));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path wrapper = bin.resolve("java");
        Files.writeString(wrapper, "#!/bin/sh\n"
                + "case \" $* \" in *\" -Xshare:on \"*) touch -d '2001-01-01 00:00:00' '" + jar + "' ;; esac\n"
                + "exec '" + java + "' \"$@\"\n");
        Files.setPosixFilePermissions(wrapper, PosixFilePermissions.fromString("rwxr-xr-x"));
        Run run = train(dir, jar, dir.resolve("metahook.jsa"), freePort(), bin + ":" + System.getenv("PATH"));
        assertNotEquals(0, run.exit(), run.output());
        assertTrue(run.output().contains("Unable to use shared archive"), run.output());
        assertTrue(run.output().contains("train: start from the class archive"), run.output());
    }

    private static Path jar(Path dir) throws IOException {
        Path built = Path.of("target/metahook.jar");
        assertTrue(Files.isRegularFile(built), "run after package: " + built);
        return Files.copy(built, dir.resolve("metahook.jar"));
    }

    private static Run train(Path dir, Path jar, Path archive, int port, String path) throws Exception {
        Path training = Files.createDirectories(dir.resolve("training"));
        for (String file : List.of("metacontroller/webapp-controller.yaml", "metacontroller/database-controller.yaml",
                "examples/webapp.yaml", "examples/database.yaml")) {
            Files.copy(Path.of(file), training.resolve(Path.of(file).getFileName()));
        }
        Path log = dir.resolve("train.log");
        ProcessBuilder builder = new ProcessBuilder("bash", "src/image/train", jar.toString(), archive.toString(), training.toString())
                .redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().put("TRAINING_PORT", Integer.toString(port));
        builder.environment().put("PATH", path);
        Process process = builder.start();
        try {
            assertTrue(process.waitFor(10, TimeUnit.MINUTES), "the training run ends");
            return new Run(process.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
        } finally {
            process.destroyForcibly();
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
