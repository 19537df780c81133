package dev.metahook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Dockerfile's build stage, step by step, in an empty directory: each COPY copies what it names
 * (target directories left out, as .dockerignore does), each RUN runs, offline against the local
 * Maven repository. It fails when a step needs a file the steps before it did not copy, such as a
 * file the pom names that the dependency layer lacks, and it ends with target/metahook.jar.
 */
class DependencyLayerIT {

    @Test
    void theBuildStageBuildsTheJarFromWhatEachStepIsGiven(@TempDir Path work) throws Exception {
        for (String instruction : ContainerTest.buildStage()) {
            if (instruction.startsWith("COPY ")) {
                copy(instruction.substring(5).split(" "), work);
            } else if (instruction.startsWith("RUN ")) {
                String command = instruction.substring(4).replaceAll("\\bmvn (?!.*-o )", "mvn -o ");
                run(command, work);
            }
        }
        assertTrue(Files.isRegularFile(work.resolve("target/metahook.jar")), "the build stage makes target/metahook.jar");
    }

    private static void copy(String[] arguments, Path work) throws IOException {
        List<String> sources = Arrays.asList(arguments).subList(0, arguments.length - 1);
        Path destination = work.resolve(arguments[arguments.length - 1]).normalize();
        for (String source : sources) {
            Path from = Path.of(source);
            if (Files.isDirectory(from)) {
                try (Stream<Path> files = Files.walk(from)) {
                    for (Path file : files.filter(Files::isRegularFile).filter(f -> !f.toString().contains("/target/")).toList()) {
                        Path to = destination.resolve(from.relativize(file).toString());
                        Files.createDirectories(to.getParent());
                        Files.copy(file, to, StandardCopyOption.REPLACE_EXISTING);
                    }
                }
            } else {
                Path to = arguments[arguments.length - 1].endsWith("/") || arguments[arguments.length - 1].equals(".")
                        ? destination.resolve(from.getFileName().toString()) : destination;
                Files.createDirectories(to.getParent());
                Files.copy(from, to, StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }

    private static void run(String command, Path work) throws Exception {
        Path log = work.resolveSibling(work.getFileName() + ".log");
        Process process = new ProcessBuilder("bash", "-c", command).directory(work.toFile())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            assertTrue(process.waitFor(20, TimeUnit.MINUTES), command);
            assertEquals(0, process.exitValue(), command + "\n" + Files.readString(log, StandardCharsets.UTF_8));
        } finally {
            process.destroyForcibly();
        }
    }
}
