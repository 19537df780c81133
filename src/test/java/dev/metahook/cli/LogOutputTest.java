package dev.metahook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahook.testing.Readiness;
import dev.metahook.wire.Json;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What the service writes to its log, as a real process started with {@code java}: with
 * {@code LOG_FORMAT=json} one JSON object per line; the bodies of a call only at {@code LOG_LEVEL=DEBUG},
 * with the Secret's data redacted; the credentials of a call never.
 */
class LogOutputTest {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    /** The base64 password of the Secret the Database sync request observes. */
    private static final String SECRET_PASSWORD = "ZVdjM0VQRTBMSFJFd04taDNHLVFYTFhUaENXNU5jSE4=";

    @Test
    void jsonFormatWritesOneObjectPerLineAndNoBodiesAtInfo() throws Exception {
        List<JsonNode> lines = jsonLinesOfOneDatabaseSync("INFO");
        JsonNode call = only(lines, "hook call");
        assertEquals("database", call.path("controller").asText(), call.toString());
        assertEquals("sync", call.path("hook").asText());
        assertEquals("200", call.path("status").asText());
        assertEquals("INFO", call.path("level").asText());
        assertTrue(lines.stream().noneMatch(line -> line.path("message").asText().equals("hook call bodies")), lines.toString());
    }

    @Test
    void debugAddsTheBodiesWithSecretDataRedacted() throws Exception {
        List<JsonNode> lines = jsonLinesOfOneDatabaseSync("DEBUG");
        JsonNode bodies = only(lines, "hook call bodies");
        assertEquals("DEBUG", bodies.path("level").asText());
        String request = bodies.path("request").asText();
        assertTrue(request.contains("orders-credentials"), "the request is logged: " + request);
        assertTrue(bodies.path("response").asText().contains("StatefulSet"), bodies.toString());
        assertFalse(lines.toString().contains(SECRET_PASSWORD), "the Secret's data is redacted");
        assertFalse(lines.toString().contains("s3cret-bearer"), "credentials are never logged");
    }

    private static JsonNode only(List<JsonNode> lines, String message) {
        List<JsonNode> matching = lines.stream().filter(line -> line.path("message").asText().equals(message)).toList();
        assertEquals(1, matching.size(), lines.toString());
        return matching.get(0);
    }

    /** Starts the service with LOG_FORMAT=json, sends one Database sync, stops it, and parses every line it wrote. */
    private static List<JsonNode> jsonLinesOfOneDatabaseSync(String level) throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder builder = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), Main.class.getName());
        builder.environment().put("PORT", Integer.toString(port));
        builder.environment().put("HOST", "127.0.0.1");
        builder.environment().put("METAHOOK_DATABASE_KEY", "a key for the log output test");
        builder.environment().put("LOG_FORMAT", "json");
        builder.environment().put("LOG_LEVEL", level);
        builder.environment().remove("METAHOOK_EXAMPLES");
        Path log = Files.createTempFile("metahook-log", ".txt");
        Process process = builder.redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            Readiness.await(port, process, () -> "");
            HttpResponse<String> sync = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/database/sync"))
                    .header("Authorization", "Bearer s3cret-bearer")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(Files.readAllBytes(Path.of("examples/requests/database-sync.json"))))
                    .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, sync.statusCode(), sync.body());
        } finally {
            process.destroy();
            assertTrue(process.waitFor(60, TimeUnit.SECONDS));
        }
        String output = Files.readString(log);
        Files.delete(log);
        List<JsonNode> lines = new ArrayList<>();
        for (String line : output.split("\n")) {
            JsonNode parsed = Json.parse(line.getBytes(StandardCharsets.UTF_8));
            assertTrue(parsed.isObject(), "not a JSON object: " + line);
            lines.add(parsed);
        }
        return lines;
    }

}
