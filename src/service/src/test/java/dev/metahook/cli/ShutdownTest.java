package dev.metahook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.internal.wire.CanonicalJson;
import dev.metahook.internal.wire.Json;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.ConnectException;
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
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * SIGTERM to a real metahook process while calls are in flight: readiness turns false, the listener
 * stops taking connections, every call in flight completes with 200 and {@code Connection: close},
 * and the process exits 0 within its bound.
 */
class ShutdownTest {
    private static final Duration SHUTDOWN_TIMEOUT = Duration.ofSeconds(10);
    /**
     * Bodies padded to 64 KiB: half of one is enough for the server's minimum body rate (1 KiB/s
     * from the first byte) for half a minute, so a paused caller is cut only by the 5 s read idle limit.
     */
    private static final int BODY_SIZE = 64 * 1024;

    @Test
    void finishesCallsInFlightThenExits() throws Exception {
        int port = freePort();
        Process process = start(port);
        try {
            waitUntilReady(port);
            byte[] body = padded(Files.readAllBytes(Path.of("examples/requests/webapp-sync.json")));
            List<PausedCall> calls = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                calls.add(new PausedCall(port, body));
            }
            ScheduledExecutorService trickle = Executors.newSingleThreadScheduledExecutor();
            trickle.scheduleWithFixedDelay(() -> calls.forEach(PausedCall::sendOneByte), 500, 500, TimeUnit.MILLISECONDS);
            waitUntilInFlight(port, calls.size());
            Socket probe = new Socket("127.0.0.1", port);
            probe.setSoTimeout(20_000);

            process.destroy();
            assertEquals(503, pollReadinessUntilNotReady(probe), "readiness goes false");
            assertNotAccepting(port);
            trickle.shutdown();
            assertTrue(trickle.awaitTermination(10, TimeUnit.SECONDS));

            for (PausedCall call : calls) {
                String response = call.finish();
                assertTrue(response.startsWith("HTTP/1.1 200"), response.length() > 600 ? response.substring(0, 600) : response);
                assertTrue(response.toLowerCase(Locale.ROOT).contains("\r\nconnection: close\r\n"), "the drain closes connections");
                assertTrue(response.contains("\"kind\":\"Deployment\""));
            }
            assertTrue(process.waitFor(SHUTDOWN_TIMEOUT.toSeconds() + 5, TimeUnit.SECONDS), "the process exits within its bound");
            assertEquals(0, process.exitValue(), "a drain that answered every call exits 0");
        } finally {
            process.destroyForcibly();
        }
    }

    /** The request with a parent annotation that brings it to {@link #BODY_SIZE} bytes. */
    private static byte[] padded(byte[] request) throws Exception {
        var tree = (ObjectNode) Json.parse(request);
        byte[] compact = CanonicalJson.bytes(tree);
        ((ObjectNode) tree.at("/parent/metadata")).withObjectProperty("annotations")
                .put("shutdown-test/padding", "x".repeat(BODY_SIZE - compact.length - 64));
        return CanonicalJson.bytes(tree);
    }

    private static Process start(int port) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder builder = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), Main.class.getName());
        builder.environment().put("PORT", Integer.toString(port));
        builder.environment().put("HOST", "127.0.0.1");
        builder.environment().put("SHUTDOWN_TIMEOUT_SECONDS", Long.toString(SHUTDOWN_TIMEOUT.toSeconds()));
        builder.environment().put("METAHOOK_DATABASE_KEY", "a key for the shutdown test");
        builder.redirectErrorStream(true).redirectOutput(new java.io.File("target/shutdown-test.log"));
        return builder.start();
    }

    /**
     * A hook call whose headers and first half of the body are sent: in flight until the rest comes.
     * While the test waits for the drain it sends a byte now and then, so that a slow machine does not
     * run into the server's read idle limit and turn the test into a 408.
     */
    private static final class PausedCall {
        private final Socket socket;
        private final byte[] body;
        private int sent;

        PausedCall(int port, byte[] body) throws IOException {
            this.socket = new Socket("127.0.0.1", port);
            this.body = body;
            socket.setSoTimeout(20_000);
            OutputStream out = socket.getOutputStream();
            out.write(("POST /webapp/sync HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nConnection: close\r\n"
                    + "Content-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            send(body.length / 2);
        }

        synchronized void sendOneByte() {
            try {
                send(1);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** The rest of the body, then the whole response. */
        synchronized String finish() throws Exception {
            send(body.length - sent);
            String response = readAll(socket.getInputStream());
            socket.close();
            return response;
        }

        private void send(int bytes) throws IOException {
            socket.getOutputStream().write(body, sent, bytes);
            socket.getOutputStream().flush();
            sent += bytes;
        }
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

    /** Asks /readyz on a connection opened before SIGTERM, until it is not 200. */
    private static int pollReadinessUntilNotReady(Socket probe) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        DataInputStream in = new DataInputStream(probe.getInputStream());
        while (System.nanoTime() < deadline) {
            probe.getOutputStream().write("GET /readyz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            probe.getOutputStream().flush();
            String statusLine = line(in);
            int length = 0;
            for (String header; !(header = line(in)).isEmpty(); ) {
                if (header.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                    length = Integer.parseInt(header.substring("content-length:".length()).trim());
                }
            }
            in.readFully(new byte[length]);
            int status = Integer.parseInt(statusLine.split(" ")[1]);
            if (status != 200) {
                return status;
            }
            Thread.sleep(10);
        }
        return 200;
    }

    private static String line(DataInputStream in) throws Exception {
        StringBuilder line = new StringBuilder();
        for (int c; (c = in.read()) != '\n'; ) {
            if (c == -1) {
                throw new EOFException("closed");
            }
            if (c != '\r') {
                line.append((char) c);
            }
        }
        return line.toString();
    }

    /** Until a new connection is refused: the listener is closed. */
    private static void assertNotAccepting(int port) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (System.nanoTime() < deadline) {
            try (Socket socket = new Socket("127.0.0.1", port)) {
                Thread.sleep(10);
            } catch (ConnectException refused) {
                return;
            }
        }
        throw new AssertionError("the listener still accepts connections during the drain");
    }

    private static void waitUntilReady(int port) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline) {
            try {
                if (readiness(port) == 200) {
                    return;
                }
            } catch (IOException notYet) {
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
