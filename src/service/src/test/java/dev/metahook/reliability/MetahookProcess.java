package dev.metahook.reliability;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.metahook.internal.wire.Json;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code target/metahook.jar} as the image runs it: the JVM flags of the Dockerfile's entrypoint, and
 * {@code -XX:MaxRAM} set to the Deployment's memory limit so the heap is sized as in the container.
 * Listens on a free loopback port; its output goes to a file under {@code target/reliability}.
 */
final class MetahookProcess implements AutoCloseable {
    private static final Path JAR = Path.of("target/metahook.jar");

    private final Process process;
    private final int port;
    private final Path log;

    private MetahookProcess(Process process, int port, Path log) {
        this.process = process;
        this.port = port;
        this.log = log;
    }

    static MetahookProcess start(String name, Map<String, String> env) throws IOException {
        if (!Files.isRegularFile(JAR)) {
            throw new IllegalStateException(JAR + " is missing: run mvn package first");
        }
        int port = freePort();
        Path dir = Files.createDirectories(Path.of("target/reliability"));
        Path log = dir.resolve(name + ".log");
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-XX:MaxRAM=" + containerMemoryLimitBytes());
        command.addAll(shippedJvmFlags());
        command.add("-jar");
        command.add(JAR.toString());
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().put("PORT", Integer.toString(port));
        builder.environment().put("HOST", "127.0.0.1");
        builder.environment().put("METAHOOK_DATABASE_KEY", "a key for the reliability suite");
        builder.environment().putAll(env);
        MetahookProcess started = new MetahookProcess(builder.start(), port, log);
        started.waitUntilReady();
        return started;
    }

    /** The entrypoint's JVM flags, without the class archive only the image has. */
    static List<String> shippedJvmFlags() throws IOException {
        for (String line : Files.readAllLines(Path.of("Dockerfile"))) {
            if (line.startsWith("ENTRYPOINT ")) {
                List<String> flags = new ArrayList<>();
                for (JsonNode arg : Json.parse(line.substring("ENTRYPOINT ".length()).getBytes(StandardCharsets.UTF_8))) {
                    String text = arg.asText();
                    if (text.equals("-jar")) {
                        return flags;
                    }
                    if (text.startsWith("-") && !text.startsWith("-XX:SharedArchiveFile")) {
                        flags.add(text);
                    }
                }
            }
        }
        throw new IllegalStateException("no ENTRYPOINT in the Dockerfile");
    }

    /** The memory limit of the Deployment in metacontroller/hook-service.yaml, in bytes. */
    static long containerMemoryLimitBytes() throws IOException {
        YAMLMapper yaml = new YAMLMapper();
        for (JsonNode document : yaml.readValues(new YAMLFactory().createParser(Path.of("metacontroller/hook-service.yaml").toFile()),
                JsonNode.class).readAll()) {
            if ("Deployment".equals(document.path("kind").asText())) {
                String limit = document.at("/spec/template/spec/containers/0/resources/limits/memory").asText();
                if (!limit.endsWith("Mi")) {
                    throw new IllegalStateException("memory limit not in Mi: " + limit);
                }
                return Long.parseLong(limit.substring(0, limit.length() - 2)) * 1024 * 1024;
            }
        }
        throw new IllegalStateException("no Deployment in metacontroller/hook-service.yaml");
    }

    int port() {
        return port;
    }

    boolean alive() {
        return process.isAlive();
    }

    /** Peak resident memory so far (VmHWM), in bytes. */
    long peakRssBytes() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/" + process.pid() + "/status"))) {
            if (line.startsWith("VmHWM:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
            }
        }
        throw new IllegalStateException("no VmHWM");
    }

    String output() throws IOException {
        return Files.readString(log, StandardCharsets.UTF_8);
    }

    /** Hook calls the service logged with this status. */
    long loggedCalls(int status) throws IOException {
        return output().lines().filter(line -> line.contains("hook call ") && line.contains("status=\"" + status + "\"")).count();
    }

    long loggedCalls() throws IOException {
        return output().lines().filter(line -> line.contains("hook call controller=")).count();
    }

    void sigterm() {
        process.destroy();
    }

    /** Waits for the process to exit; its exit code, or -1 when it did not within {@code within}. */
    int exitCode(Duration within) throws InterruptedException {
        return process.waitFor(within.toMillis(), TimeUnit.MILLISECONDS) ? process.exitValue() : -1;
    }

    /** Until the output has a line containing {@code text}. */
    void waitForOutput(String text, Duration within) throws Exception {
        long deadline = System.nanoTime() + within.toNanos();
        while (System.nanoTime() < deadline) {
            if (output().contains(text)) {
                return;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("no '" + text + "' in the output within " + within);
    }

    private void waitUntilReady() throws IOException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline && process.isAlive()) {
            try (Socket socket = new Socket("127.0.0.1", port)) {
                if (Http.exchange(socket, "GET", "/readyz", null).status() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException(e);
            }
        }
        throw new IllegalStateException("metahook did not become ready; output:\n" + output());
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
