package dev.metahook.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.internal.wire.CanonicalJson;
import dev.metahook.internal.wire.Json;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * L3 of issue 36: nobody writes a log line of their own, in either format. With a token configured, a call
 * without it whose path carries an encoded newline, or an escape character, and an authenticated call whose
 * parent's name carries LF, CR, a quote and NUL, each leave exactly one line, with no raw control character.
 */
class LogForgeryIT {
    private static final String TOKEN = "a token for the forgery probe";

    @ParameterizedTest
    @ValueSource(strings = {"text", "json"})
    void noCallerWritesALineOfItsOwn(String format) throws Exception {
        Path token = Files.createTempFile("metahook-token", "");
        Files.writeString(token, TOKEN);
        try (MetahookProcess metahook = MetahookProcess.start("log-forgery-" + format,
                Map.of("AUTH_BEARER_TOKEN_FILE", token.toString(), "LOG_FORMAT", format))) {
            int before = lines(metahook).size();

            assertEquals(401, call(metahook.port(), "/x%0a2099-01-01T00:00:00.000Z%20ERROR%20FAKE1/sync", null, new byte[0]).status());
            assertEquals(401, call(metahook.port(), "/x%0d%0a2099-01-01T00:00:00.000Z%20ERROR%20FAKE2%22/sync", null, new byte[0]).status());
            assertEquals(401, call(metahook.port(), "/x%1b%5b31mFAKE3/sync", null, new byte[0]).status());
            assertEquals(401, call(metahook.port(), "/webapp/FAKE4" + "%0a".repeat(200) + "y".repeat(3_000), null, new byte[0]).status());
            ObjectNode request = (ObjectNode) Json.parse(Bodies.small());
            ((ObjectNode) request.at("/parent/metadata")).put("name", "p\n2099-01-01T00:00:00.000Z ERROR FAKE5\r\"\u0000\u001b[31m\u2028");
            int status = call(metahook.port(), "/webapp/sync", "Bearer " + TOKEN, CanonicalJson.bytes(request)).status();
            assertTrue(status == 200 || status == 400 || status == 422, "answered: " + status);

            List<String> after = waitForLines(metahook, before, 5);
            String output = metahook.output();
            for (int fake = 1; fake <= 5; fake++) {
                String marker = "FAKE" + fake;
                assertEquals(1, after.stream().filter(line -> line.contains(marker)).count(), marker + " on one line:\n" + output);
            }
            assertFalse(output.contains("\u001b"), "no raw ESC:\n" + output);
            assertFalse(output.contains("\r"), "no raw CR:\n" + output);
            assertFalse(output.contains("\u0000"), "no raw NUL:\n" + output);
            assertFalse(output.contains("\u2028"), "no raw line separator:\n" + output);
            assertTrue(after.stream().noneMatch(line -> line.startsWith("2099-")), "no forged line:\n" + output);
            String longest = after.stream().filter(line -> line.contains("FAKE4")).findFirst().orElseThrow();
            assertTrue(longest.length() < 2_000, "an unauthenticated path is logged bounded: " + longest.length() + " characters");
            if (format.equals("json")) {
                for (String line : after) {
                    if (line.startsWith("{")) {
                        Json.parse(line.getBytes(StandardCharsets.UTF_8));
                    }
                }
            }
        } finally {
            Files.deleteIfExists(token);
        }
    }

    private static Http.Response call(int port, String path, String authorization, byte[] body) throws Exception {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(("POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + (authorization != null ? "Authorization: " + authorization + "\r\n" : "")
                    + "Content-Length: " + body.length + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.write(body);
            out.flush();
            return Http.read(socket.getInputStream());
        }
    }

    /** The output's lines after the first {@code before}, once {@code calls} more hook calls are logged. */
    private static List<String> waitForLines(MetahookProcess metahook, int before, int calls) throws Exception {
        for (int i = 0; i < 250; i++) {
            List<String> lines = lines(metahook);
            List<String> after = lines.subList(before, lines.size());
            if (after.stream().filter(line -> line.contains("hook call")).count() >= calls) {
                Thread.sleep(100);
                lines = lines(metahook);
                return lines.subList(before, lines.size());
            }
            Thread.sleep(20);
        }
        throw new AssertionError("not " + calls + " hook calls logged:\n" + metahook.output());
    }

    private static List<String> lines(MetahookProcess metahook) throws Exception {
        return metahook.output().lines().toList();
    }
}
