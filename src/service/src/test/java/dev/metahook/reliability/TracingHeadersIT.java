package dev.metahook.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Nothing before authentication costs more than a header's bytes: with tracing on (baggage turned on too,
 * the worst case) and a token configured, a thousand calls without the token and with hostile
 * {@code traceparent}, {@code tracestate} and {@code baggage} headers (malformed, nearly 8 KiB, a thousand
 * bad members) are each refused {@code 401} and add less than 1 KB of log each, with no stack trace.
 */
class TracingHeadersIT {
    private static final int CALLS = 1_000;
    private static final List<String> HOSTILE = List.of(
            "traceparent: 00-zz-not-a-trace-id-01\r\ntracestate: =,=,=\r\nbaggage: a=%zz,b=%\r\n",
            "baggage: " + "a=%zz,".repeat(1_000) + "\r\n",
            "traceparent: 00-0af7651916cd76f8a5273ed4b1b2f2e1-b7ad6b7169203331-01\r\ntracestate: " + "k=%zz,".repeat(1_200) + "\r\n");

    @Test
    void unauthenticatedCallsWithHostileTracingHeadersAddLessThanAKilobyteOfLogEach() throws Exception {
        Path token = Files.createTempFile("metahook-token", "");
        Files.writeString(token, "a token for the tracing probe");
        try (MetahookProcess metahook = MetahookProcess.start("tracing-headers", Map.of("AUTH_BEARER_TOKEN_FILE", token.toString(),
                "OTEL_TRACES_EXPORTER", "otlp", "OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:9", "OTEL_PROPAGATORS", "tracecontext,baggage"))) {
            long before = metahook.output().length();
            try (Socket socket = Scenarios.socket(metahook.port())) {
                for (int i = 0; i < CALLS; i++) {
                    OutputStream out = socket.getOutputStream();
                    out.write(("POST /webapp/sync HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n" + HOSTILE.get(i % HOSTILE.size()) + "\r\n")
                            .getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                    Http.Response response = Http.read(socket.getInputStream());
                    assertEquals(401, response.status(), response.text());
                }
            }
            String added = metahook.output().substring((int) before);
            assertTrue(added.length() < CALLS * 1024L, "log added per call: " + added.length() / CALLS + " characters");
            assertFalse(added.contains("\tat "), "no stack trace:\n" + added.substring(0, Math.min(4_000, added.length())));
        } finally {
            Files.delete(token);
        }
    }
}
