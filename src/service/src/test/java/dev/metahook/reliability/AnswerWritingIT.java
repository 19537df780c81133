package dev.metahook.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.internal.wire.CanonicalJson;
import dev.metahook.internal.wire.Json;
import dev.metahook.testing.Scrapes;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * L1 of issue 36: writing an answer has a limit of its own, apart from the request body's 5 s pause, and an
 * answer that was not written whole is logged and counted {@code write-failed}, never {@code 200}.
 */
class AnswerWritingIT {
    private static final int ENV_VALUE = 12 * 1024 * 1024;

    @Test
    void aLargeAnswerReachesAClientThatPausesAndACutOneIsNotA200() throws Exception {
        try (MetahookProcess metahook = MetahookProcess.start("answer-writing", Map.of())) {
            try (Socket socket = slowReader(metahook.port(), "paused-reader")) {
                InputStream in = socket.getInputStream();
                byte[] start = in.readNBytes(1024);
                assertTrue(new String(start, StandardCharsets.ISO_8859_1).startsWith("HTTP/1.1 200"), new String(start, 0, 64, StandardCharsets.ISO_8859_1));
                Thread.sleep(7_000);
                String head = new String(start, StandardCharsets.ISO_8859_1);
                int headEnd = head.indexOf("\r\n\r\n") + 4;
                long length = Long.parseLong(head.replaceAll("(?s).*[Cc]ontent-[Ll]ength: (\\d+).*", "$1"));
                int already = start.length - headEnd;
                long received = already + in.readNBytes((int) length - already).length;
                assertEquals(length, received, "the whole answer after a 7 s pause");
                assertTrue(length > ENV_VALUE, "a large answer: " + length);
            }
            try (Socket socket = slowReader(metahook.port(), "gone-reader")) {
                socket.getInputStream().readNBytes(64 * 1024);
                socket.setSoLinger(true, 0);
            }
            metahook.waitForOutput("write-failed", Duration.ofSeconds(40));
            Thread.sleep(200);
            List<String> calls = metahook.output().lines().filter(line -> line.contains("hook call ")).toList();
            List<String> paused = calls.stream().filter(line -> line.contains("paused-reader")).toList();
            List<String> gone = calls.stream().filter(line -> line.contains("gone-reader")).toList();
            assertEquals(1, paused.size(), calls.toString());
            assertTrue(paused.get(0).contains("status=\"200\""), paused.toString());
            assertEquals(1, gone.size(), calls.toString());
            assertTrue(gone.get(0).contains("outcome=\"write-failed\"") && !gone.get(0).contains("status=\"200\""), gone.toString());
            // the call is logged, then counted: the scrape waits for the count
            String metrics = Scrapes.showing(metahook.port(), "outcome=\"write-failed\"");
            assertTrue(metrics.lines().anyMatch(line -> line.contains("outcome=\"write-failed\"") && !line.startsWith("#")), metrics);
        }
    }

    /** A socket with a small receive buffer that has sent a WebApp sync whose answer is over 12 MB, and read nothing yet. */
    private static Socket slowReader(int port, String name) throws Exception {
        ObjectNode request = (ObjectNode) Json.parse(Bodies.small());
        ((ObjectNode) request.at("/parent/metadata")).put("name", name);
        ArrayNode env = (ArrayNode) request.at("/parent/spec/env");
        ((ObjectNode) env.get(0)).put("value", "x".repeat(ENV_VALUE));
        byte[] body = CanonicalJson.bytes(request);
        Socket socket = new Socket();
        socket.setReceiveBufferSize(32 * 1024);
        socket.connect(new InetSocketAddress("127.0.0.1", port));
        socket.setSoTimeout(30_000);
        OutputStream out = socket.getOutputStream();
        out.write(Http.head("POST", "/webapp/sync", body.length));
        out.write(body);
        out.flush();
        return socket;
    }
}
