package dev.metahook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import dev.metahook.internal.wire.Json;
import dev.metahook.testing.ServiceProcess;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The service, started as a process with {@code java}, takes its tracing from the standard {@code OTEL_*}
 * variables: with an OTLP endpoint it posts the span of a WebApp sync to {@code /v1/traces} of that endpoint
 * (here an OTLP/HTTP receiver on 127.0.0.1 that keeps what it is sent), carrying the caller's trace id; with
 * {@code OTEL_TRACES_EXPORTER=none} it sends nothing, not even when it stops and flushes. What the exporter
 * logs (a collector that refuses the spans) is a line of the service's own log format.
 */
class TraceExportTest {
    private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String TRACEPARENT = "00-" + TRACE_ID + "-00f067aa0ba902b7-01";

    /** What the receiver was sent: the path and the body of each request. */
    private final List<Map.Entry<String, byte[]>> received = new CopyOnWriteArrayList<>();
    /** The status the receiver answers with. */
    private volatile int answer = 200;
    private HttpServer receiver;

    @BeforeEach
    void startReceiver() throws IOException {
        receiver = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        receiver.createContext("/", exchange -> {
            try (InputStream body = exchange.getRequestBody()) {
                received.add(Map.entry(exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath()
                        + " " + exchange.getRequestHeaders().getFirst("Content-Type"), body.readAllBytes()));
            }
            exchange.sendResponseHeaders(answer, -1);
            exchange.close();
        });
        receiver.start();
    }

    @AfterEach
    void stopReceiver() {
        receiver.stop(0);
    }

    @Test
    void anOtlpEndpointGetsTheSpanOfEveryCall() throws Exception {
        String output = oneWebAppSync(Map.of(), written -> true);
        assertTrue(output.contains("tracing on"), output);
        Map.Entry<String, byte[]> export = received.stream().filter(request -> contains(request.getValue(), "metahook.controller"))
                .findFirst().orElseThrow(() -> new AssertionError("no span of the call was exported: " + paths() + "\n" + output));
        assertEquals("POST /v1/traces application/x-protobuf", export.getKey());
        byte[] spans = export.getValue();
        assertTrue(contains(spans, "POST /webapp/sync"), "the span's name");
        assertTrue(contains(spans, "webapp"), "the controller");
        assertTrue(contains(spans, "metahook"), "the service's name");
        assertTrue(contains(spans, HexFormat.of().parseHex(TRACE_ID)), "the caller's trace id");
    }

    @Test
    void tracesExporterNoneSendsNothing() throws Exception {
        String output = oneWebAppSync(Map.of("OTEL_TRACES_EXPORTER", "none"), written -> true);
        assertTrue(received.isEmpty(), "sent: " + paths());
        assertFalse(output.contains("tracing on"), output);
    }

    @Test
    void whatTheExporterLogsIsOneJsonLineOfTheServicesLog() throws Exception {
        answer = 400;
        String output = oneWebAppSync(Map.of("LOG_FORMAT", "json", "OTEL_BSP_SCHEDULE_DELAY", "50"),
                written -> written.contains("Failed to export"));
        assertFalse(received.isEmpty(), "the exporter tried: " + output);
        List<JsonNode> lines = output.lines().map(line -> {
            JsonNode parsed = Json.parse(line.getBytes(StandardCharsets.UTF_8));
            assertTrue(parsed.isObject(), "not a JSON object: " + line);
            return parsed;
        }).toList();
        assertTrue(lines.stream().anyMatch(line -> line.path("message").asText().contains("Failed to export")
                && line.path("logger_name").asText().startsWith("io.opentelemetry")
                && List.of("WARN", "ERROR").contains(line.path("level").asText())), output);
    }

    /**
     * Starts the service with its OTLP endpoint the receiver and these variables besides, sends one WebApp
     * sync with a traceparent, waits until what it wrote meets the condition, and stops it (which flushes what it
     * has); returns what it wrote.
     */
    private String oneWebAppSync(Map<String, String> variables, Predicate<String> written) throws Exception {
        Map<String, String> environment = new HashMap<>(variables);
        environment.put("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:" + receiver.getAddress().getPort());
        environment.put("METAHOOK_EXAMPLES", null);
        ServiceProcess service = ServiceProcess.start(System.getProperty("java.class.path"), Main.class, environment);
        HttpResponse<String> sync;
        try {
            sync = service.post("/webapp/sync", Files.readAllBytes(Path.of("examples/requests/webapp-sync.json")),
                    "traceparent", TRACEPARENT, "Content-Type", "application/json");
            service.awaitOutput(written);
        } catch (Exception | AssertionError e) {
            service.stop();
            throw e;
        }
        String output = service.stop();
        assertEquals(200, sync.statusCode(), sync.body() + "\n" + output);
        return output;
    }

    private List<String> paths() {
        return received.stream().map(Map.Entry::getKey).toList();
    }

    private static boolean contains(byte[] body, String text) {
        return contains(body, text.getBytes(StandardCharsets.UTF_8));
    }

    private static boolean contains(byte[] body, byte[] part) {
        outer:
        for (int i = 0; i + part.length <= body.length; i++) {
            for (int j = 0; j < part.length; j++) {
                if (body[i + j] != part[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
