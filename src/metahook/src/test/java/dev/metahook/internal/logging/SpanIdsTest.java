package dev.metahook.internal.logging;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import com.fasterxml.jackson.databind.JsonNode;
import dev.metahook.api.Controllers;
import dev.metahook.api.Result;
import dev.metahook.internal.engine.HookEngine;
import dev.metahook.internal.server.HookServer;
import dev.metahook.internal.server.ServerConfig;
import dev.metahook.internal.server.Tracing;
import dev.metahook.internal.wire.Json;
import dev.metahook.testing.Requests;
import dev.metahook.testing.TestServer;
import dev.metahook.testing.Widget;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

/**
 * A controller of a real server, traced to an in-memory exporter, logs a line in the hook call's span and one inside a
 * span of its own: each line, in the service's JSON and text formats, carries the ids of the span it was logged in, as
 * the exporter got them.
 */
class SpanIdsTest {

    @Test
    void aJsonLineCarriesTheIdsOfTheSpanItWasLoggedIn() {
        Logged logged = callLogging(Map.of("LOG_FORMAT", "json"));

        JsonNode inCall = json(logged.line("in the call"));
        JsonNode inOwn = json(logged.line("inside my span"));
        assertEquals(logged.call().getTraceId(), inCall.path(SpanIds.TRACE_ID).asText(), inCall.toString());
        assertEquals(logged.call().getSpanId(), inCall.path(SpanIds.SPAN_ID).asText(), inCall.toString());
        assertEquals(logged.own().getTraceId(), inOwn.path(SpanIds.TRACE_ID).asText(), inOwn.toString());
        assertEquals(logged.own().getSpanId(), inOwn.path(SpanIds.SPAN_ID).asText(), inOwn.toString());
        assertNotEquals(logged.call().getSpanId(), logged.own().getSpanId());
        assertEquals("traced", inOwn.path("controller").asText(), "the call's MDC is kept: " + inOwn);
    }

    @Test
    void aTextLineCarriesThemTooWhenTracingIsOn() {
        Logged logged = callLogging(Map.of());

        String inCall = logged.line("in the call");
        String inOwn = logged.line("inside my span");
        assertTrue(inCall.contains("trace_id=" + logged.call().getTraceId()) && inCall.contains("span_id=" + logged.call().getSpanId()), inCall);
        assertTrue(inOwn.contains("trace_id=" + logged.own().getTraceId()) && inOwn.contains("span_id=" + logged.own().getSpanId()), inOwn);
    }

    /** What a service logging in this format writes, and the spans exported, for one call of a controller that logs. */
    private static Logged callLogging(Map<String, String> env) {
        InMemorySpanExporter exporter = InMemorySpanExporter.create();
        PrintStream before = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        LoggerContext logging = new LoggerContext();
        logging.setMDCAdapter(MDC.getMDCAdapter());
        try (OpenTelemetrySdk sdk = OpenTelemetrySdk.builder()
                .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exporter)).build()).build()) {
            System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
            LogConfiguration.configure(logging, env);
            Logger log = logging.getLogger("example.TracedController");
            Tracer tracer = sdk.getTracer("example");
            Controllers controllers = Controllers.builder().composite("traced", Widget.class, (widget, context) -> {
                log.info("in the call");
                Span own = tracer.spanBuilder("render").startSpan();
                try (Scope current = own.makeCurrent()) {
                    log.info("inside my span");
                } finally {
                    own.end();
                }
                return Result.of();
            }).build();
            try (HookServer server = HookServer.start(new HookEngine(controllers, TestServer.CLOCK),
                    HookServer.Options.of(ServerConfig.defaults().withHost("127.0.0.1").withPort(0)).tracing(Tracing.to(sdk)))) {
                given().port(server.port()).body(Requests.bytes(Requests.sync(Requests.widget("hello", 3, "hi"), List.of(), false)))
                        .post("/traced/sync").then().statusCode(200);
                List<SpanData> spans = spans(exporter, 2);
                return new Logged(captured.toString(StandardCharsets.UTF_8), named(spans, "POST /traced/sync"), named(spans, "render"));
            }
        } finally {
            logging.stop();
            System.setErr(before);
        }
    }

    private record Logged(String written, SpanData call, SpanData own) {
        String line(String message) {
            return written.lines().filter(line -> line.contains(message)).findFirst()
                    .orElseThrow(() -> new AssertionError("no line '" + message + "' in:\n" + written));
        }
    }

    private static List<SpanData> spans(InMemorySpanExporter exporter, int count) {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (exporter.getFinishedSpanItems().size() < count && System.nanoTime() - deadline < 0) {
            Thread.onSpinWait();
        }
        List<SpanData> spans = exporter.getFinishedSpanItems();
        assertEquals(count, spans.size(), spans.toString());
        return spans;
    }

    private static SpanData named(List<SpanData> spans, String name) {
        return spans.stream().filter(span -> span.getName().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no span " + name + " in " + spans));
    }

    private static JsonNode json(String line) {
        return Json.parse(line.getBytes(StandardCharsets.UTF_8));
    }
}
