package dev.metahook.testing;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A service the test starts as a process of its own ({@code main} of a class, on a class path, on a
 * free port of 127.0.0.1), ready once {@code /readyz} says 200; everything it writes goes to one file,
 * read with {@link #stop()}.
 */
public final class ServiceProcess {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final int port;
    private final Process process;
    private final Path log;

    private ServiceProcess(int port, Process process, Path log) {
        this.port = port;
        this.process = process;
        this.log = log;
    }

    /** Starts {@code mainClass} with {@code PORT} and {@code HOST} set and these variables besides (a null value removes one), and waits until it is ready. */
    public static ServiceProcess start(String classPath, Class<?> mainClass, Map<String, String> environment) throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder builder = new ProcessBuilder(java, "-cp", classPath, mainClass.getName());
        builder.environment().put("PORT", Integer.toString(port));
        builder.environment().put("HOST", "127.0.0.1");
        environment.forEach((name, value) -> {
            if (value == null) {
                builder.environment().remove(name);
            } else {
                builder.environment().put(name, value);
            }
        });
        Path log = Files.createTempFile("metahook-service", ".txt");
        ServiceProcess service = new ServiceProcess(port, builder.redirectErrorStream(true).redirectOutput(log.toFile()).start(), log);
        try {
            Readiness.await(port, service.process, service::output);
        } catch (Throwable e) {
            service.stop();
            throw e;
        }
        return service;
    }

    /** The port the service listens on. */
    public int port() {
        return port;
    }

    /** The exit code of the process, once {@link #stop()} has returned. */
    public int exitCode() {
        return process.exitValue();
    }

    /** Posts a body to a path of the service, with header name/value pairs. */
    public HttpResponse<String> post(String path, byte[] body, String... headers) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).timeout(Duration.ofSeconds(30));
        if (headers.length > 0) {
            request.headers(headers);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Waits until what the service wrote so far meets the condition (for up to 60 s, or fails with it); returns it. */
    public String awaitOutput(Predicate<String> condition) throws InterruptedException {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(60));
        String output = output();
        while (!condition.test(output)) {
            assertTrue(Instant.now().isBefore(deadline), () -> "not written within 60 s: " + output());
            Thread.sleep(50);
            output = output();
        }
        return output;
    }

    /** Stops the service (it must exit within 60 s) and returns all it wrote; its file is deleted. */
    public String stop() throws IOException, InterruptedException {
        process.destroy();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the service did not exit within 60 s");
        String output = Files.readString(log);
        Files.delete(log);
        return output;
    }

    private String output() {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
