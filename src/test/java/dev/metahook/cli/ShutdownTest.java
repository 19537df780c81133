package dev.metahook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * SIGTERM to a real metahook process while calls are in flight: readiness turns false while the
 * listener is still open, every call in flight completes with 200, and the process exits within its bound.
 */
class ShutdownTest {
    private static final Duration SHUTDOWN_TIMEOUT = Duration.ofSeconds(10);
    /** How long the callers take to send the rest of their bodies after SIGTERM; well inside the shutdown timeout. */
    private static final Duration SLOW_CLIENT = Duration.ofSeconds(1);

    @Test
    void finishesCallsInFlightThenExits() throws Exception {
        int port = freePort();
        Process process = start(port);
        try {
            waitUntilReady(port);
            byte[] body = Files.readAllBytes(Path.of("examples/requests/webapp-sync.json"));
            List<Socket> calls = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                calls.add(halfSent(port, body));
            }
            waitUntilInFlight(port, calls.size());

            process.destroy();
            assertEquals(503, pollReadinessUntilNotReady(port), "readiness goes false while the listener still answers");
            Thread.sleep(SLOW_CLIENT.toMillis());

            for (Socket call : calls) {
                call.getOutputStream().write(body, body.length / 2, body.length - body.length / 2);
                call.getOutputStream().flush();
                String response = readAll(call.getInputStream());
                assertTrue(response.startsWith("HTTP/1.1 200"), response.length() > 600 ? response.substring(0, 600) : response);
                assertTrue(response.contains("\"kind\":\"Deployment\""));
                call.close();
            }
            assertTrue(process.waitFor(SHUTDOWN_TIMEOUT.toSeconds() + 5, TimeUnit.SECONDS), "the process exits within its bound");
        } finally {
            process.destroyForcibly();
        }
    }

    private static Process start(int port) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder builder = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), Main.class.getName());
        builder.environment().put("PORT", Integer.toString(port));
        builder.environment().put("HOST", "127.0.0.1");
        builder.environment().put("SHUTDOWN_TIMEOUT_SECONDS", Long.toString(SHUTDOWN_TIMEOUT.toSeconds()));
        builder.environment().put("METAHOOK_DATABASE_KEY", "a key for the shutdown test");
        builder.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        return builder.start();
    }

    /** A hook call whose headers and first half of the body are sent: in flight until the rest comes. */
    private static Socket halfSent(int port, byte[] body) throws Exception {
        Socket socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(20_000);
        OutputStream out = socket.getOutputStream();
        out.write(("POST /webapp/sync HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nConnection: close\r\n"
                + "Content-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        out.write(body, 0, body.length / 2);
        out.flush();
        return socket;
    }

    /** Until the server counts the calls as in flight (their handlers started, reading the bodies). */
    private static void waitUntilInFlight(int port, int calls) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (System.nanoTime() < deadline) {
            HttpURLConnection connection = (HttpURLConnection) URI.create("http://127.0.0.1:" + port + "/metrics").toURL().openConnection();
            String metrics = readAll(connection.getInputStream());
            if (metrics.contains("metahook_hook_in_flight " + calls + ".0")) {
                return;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("the calls never got in flight");
    }

    private static int pollReadinessUntilNotReady(int port) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (System.nanoTime() < deadline) {
            int status = readiness(port);
            if (status != 200) {
                return status;
            }
            Thread.sleep(10);
        }
        return 200;
    }

    private static void waitUntilReady(int port) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline) {
            try {
                if (readiness(port) == 200) {
                    return;
                }
            } catch (java.io.IOException notYet) {
                Thread.sleep(50);
            }
        }
        throw new AssertionError("metahook did not become ready");
    }

    private static int readiness(int port) throws Exception {
        HttpURLConnection connection = (HttpURLConnection) URI.create("http://127.0.0.1:" + port + "/readyz").toURL().openConnection();
        connection.setConnectTimeout(1000);
        connection.setReadTimeout(1000);
        try {
            return connection.getResponseCode();
        } finally {
            connection.disconnect();
        }
    }

    private static String readAll(InputStream in) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        in.transferTo(out);
        return out.toString(StandardCharsets.UTF_8);
    }

    private static int freePort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
