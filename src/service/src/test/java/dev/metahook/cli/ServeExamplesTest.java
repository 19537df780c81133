package dev.metahook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.metahook.testing.Fixtures;
import dev.metahook.testing.Readiness;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The service serves Metacontroller's examples only when METAHOOK_EXAMPLES=true, and refuses to start on any other value. */
class ServeExamplesTest {
    private static final byte[] KEY = "a key for the serve examples test".getBytes(StandardCharsets.UTF_8);
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void theExamplesAreServedOnlyWhenAskedFor() {
        assertEquals(Set.of("database", "webapp"), BuiltInControllers.all(KEY, Map.of()).names());
        assertEquals(Set.of("database", "webapp"), BuiltInControllers.all(KEY, Map.of("METAHOOK_EXAMPLES", "false")).names());
        assertEquals(Set.of("bluegreen", "catset", "configmappropagation", "database", "pod-name-label", "service-per-pod", "webapp"),
                BuiltInControllers.all(KEY, Map.of("METAHOOK_EXAMPLES", "true")).names());
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> BuiltInControllers.all(KEY, Map.of("METAHOOK_EXAMPLES", "yes")));
        assertEquals("METAHOOK_EXAMPLES must be true or false, got 'yes'", error.getMessage());
    }

    @Test
    void aServiceStartedWithTheVariableAnswersTheOriginalsRequests() throws Exception {
        int port = freePort();
        Process process = start(port, "true");
        try {
            Readiness.await(port, process, () -> "");
            HttpResponse<String> blueGreen = post(port, "/bluegreen/sync", Fixtures.bytes("metacontroller/01-composite-sync-v1.request.json"));
            assertEquals(200, blueGreen.statusCode(), blueGreen.body());
            assertTrue(blueGreen.body().contains("\"activeColor\":\"blue\""), blueGreen.body());
            assertEquals(200, post(port, "/service-per-pod/sync", Fixtures.bytes("metacontroller/03-decorator-sync-v1.request.json")).statusCode());
        } finally {
            process.destroy();
            assertTrue(process.waitFor(60, TimeUnit.SECONDS));
        }
    }

    @Test
    void aServiceStartedWithoutItServesNoExample() throws Exception {
        int port = freePort();
        Process process = start(port, null);
        try {
            Readiness.await(port, process, () -> "");
            assertEquals(404, post(port, "/bluegreen/sync", Fixtures.bytes("metacontroller/01-composite-sync-v1.request.json")).statusCode());
        } finally {
            process.destroy();
            assertTrue(process.waitFor(60, TimeUnit.SECONDS));
        }
    }

    @Test
    void anyOtherValueStopsTheServiceWithAMessage() throws Exception {
        Process process = start(freePort(), "yes");
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "exits");
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(2, process.exitValue(), output);
        assertTrue(output.contains("METAHOOK_EXAMPLES must be true or false, got 'yes'"), output);
    }

    private static Process start(int port, String examples) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder builder = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), Main.class.getName());
        builder.environment().put("PORT", Integer.toString(port));
        builder.environment().put("HOST", "127.0.0.1");
        builder.environment().put("METAHOOK_DATABASE_KEY", "a key for the serve examples test");
        builder.environment().put("LOG_LEVEL", "WARN");
        builder.environment().remove("METAHOOK_EXAMPLES");
        if (examples != null) {
            builder.environment().put("METAHOOK_EXAMPLES", examples);
        }
        return builder.redirectErrorStream(true).start();
    }

    private static HttpResponse<String> post(int port, String path, byte[] body) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static int freePort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
