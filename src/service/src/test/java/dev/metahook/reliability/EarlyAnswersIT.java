package dev.metahook.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * L4 of issue 36: an answer given before the body arrived says {@code Connection: close} whenever the
 * connection is closed after it, so a keep-alive client (Go's does not send a POST again) never writes its
 * next call into a connection the service is closing.
 */
class EarlyAnswersIT {
    private static final int ROUNDS = 20;

    @Test
    void aRefusalBeforeALateBodySaysCloseOrKeepsTheConnectionUsable() throws Exception {
        Path token = Files.createTempFile("metahook-token", "");
        Files.writeString(token, "the right token");
        try (MetahookProcess metahook = MetahookProcess.start("early-401", Map.of("AUTH_BEARER_TOKEN_FILE", token.toString()))) {
            byte[] body = Bodies.small();
            List<String> broken = new ArrayList<>();
            for (int round = 0; round < ROUNDS; round++) {
                try (Socket socket = new Socket("127.0.0.1", metahook.port())) {
                    socket.setSoTimeout(10_000);
                    OutputStream out = socket.getOutputStream();
                    out.write(("POST /webapp/sync HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                            + "Authorization: Bearer not the token\r\nContent-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                    Thread.sleep(50);
                    try {
                        out.write(body);
                        out.flush();
                    } catch (IOException closed) {
                        // the service may close at once after its answer; what matters is that the answer said so
                    }
                    Http.Response first = Http.read(socket.getInputStream());
                    assertEquals(401, first.status(), first.text());
                    if (first.closes()) {
                        continue;
                    }
                    try {
                        Http.Response second = Http.exchange(socket, "GET", "/healthz", null);
                        if (second.status() != 200) {
                            broken.add("round " + round + ": " + second.status());
                        }
                    } catch (IOException e) {
                        broken.add("round " + round + ": kept open without Connection: close, then " + e);
                    }
                }
            }
            assertTrue(broken.isEmpty(), broken.size() + " of " + ROUNDS + " connections closed after an answer that did not say so: " + broken);
        } finally {
            Files.deleteIfExists(token);
        }
    }
}
