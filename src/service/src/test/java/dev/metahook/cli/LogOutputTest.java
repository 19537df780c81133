package dev.metahook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahook.testing.ServiceProcess;
import dev.metahook.internal.wire.Json;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What the service writes to its log, as a real process started with {@code java}: with
 * {@code LOG_FORMAT=json} one JSON object per line; the bodies of a call only at {@code LOG_LEVEL=DEBUG},
 * with the Secret's data redacted; the credentials of a call never.
 */
class LogOutputTest {
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
        Map<String, String> environment = new HashMap<>(Map.of("METAHOOK_DATABASE_KEY", "a key for the log output test",
                "LOG_FORMAT", "json", "LOG_LEVEL", level));
        environment.put("METAHOOK_EXAMPLES", null);
        ServiceProcess service = ServiceProcess.start(System.getProperty("java.class.path"), Main.class, environment);
        String output;
        try {
            HttpResponse<String> sync = service.post("/database/sync", Files.readAllBytes(Path.of("examples/requests/database-sync.json")),
                    "Authorization", "Bearer s3cret-bearer");
            assertEquals(200, sync.statusCode(), sync.body());
        } finally {
            output = service.stop();
        }
        List<JsonNode> lines = new ArrayList<>();
        for (String line : output.split("\n")) {
            JsonNode parsed = Json.parse(line.getBytes(StandardCharsets.UTF_8));
            assertTrue(parsed.isObject(), "not a JSON object: " + line);
            lines.add(parsed);
        }
        return lines;
    }

}
