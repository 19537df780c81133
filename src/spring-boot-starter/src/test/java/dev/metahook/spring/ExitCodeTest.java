package dev.metahook.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.metahook.spring.greeting.GreetingApplication;
import java.io.IOException;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Boot application with the starter, ended by SIGTERM, exits as the plain service does: {@code 0} when its drain
 * answered every call, {@code 1} when it cut one off (the JVM alone would exit {@code 143}). Each runs the application
 * in a JVM of its own, since the exit code is the process's.
 */
class ExitCodeTest {
    @TempDir
    Path temp;

    @Test
    void exitsZeroOnSigtermAfterADrainThatAnsweredEveryCall() throws Exception {
        int port = freePort();
        Process application = start(port, "--metahook.shutdown-idle-seconds=0");
        awaitReady(port, application);
        assertEquals(200, HookCalls.post(port, "/greeting/sync", HookCalls.SYNC).statusCode());

        application.destroy();

        assertEquals(0, exitCode(application), log());
        assertTrue(log().contains("stopped: every call in flight was answered"), log());
    }

    @Test
    void exitsOneOnSigtermAfterADrainThatCutACallOff() throws Exception {
        int port = freePort();
        Process application = start(port, "--metahook.shutdown-timeout-seconds=1");
        awaitReady(port, application);
        byte[] body = HookCalls.SYNC.getBytes(StandardCharsets.UTF_8);
        try (Socket call = new Socket("127.0.0.1", port)) {
            OutputStream out = call.getOutputStream();
            out.write(("POST /greeting/sync HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: "
                    + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(body, 0, body.length / 2);
            out.flush();

            application.destroy();

            assertEquals(1, exitCode(application), log());
        }
        assertTrue(log().contains("stopped: calls in flight were cut off"), log());
    }

    private Process start(int port, String... settings) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "org.springframework.boot.SpringApplication",
                "--spring.main.sources=" + GreetingApplication.class.getName(), "--metahook.host=127.0.0.1", "--metahook.port=" + port));
        command.addAll(List.of(settings));
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(temp.resolve("application.log").toFile()).start();
    }

    /** Polls the hook server's /readyz until it answers 200, with a generous deadline. */
    private void awaitReady(int port, Process application) throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        HttpRequest readyz = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/readyz")).build();
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
        while (System.nanoTime() < deadline && application.isAlive()) {
            try {
                if (client.send(readyz, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(100);
        }
        application.destroyForcibly();
        throw new AssertionError("the application never became ready:\n" + log());
    }

    private static int exitCode(Process application) throws InterruptedException {
        if (!application.waitFor(3, TimeUnit.MINUTES)) {
            application.destroyForcibly();
            throw new AssertionError("the application did not exit after SIGTERM");
        }
        return application.exitValue();
    }

    private String log() {
        try {
            return Files.readString(temp.resolve("application.log"));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
