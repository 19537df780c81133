package dev.metahook.internal.server;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.metahook.api.Controllers;
import dev.metahook.api.Result;
import dev.metahook.internal.engine.HookEngine;
import dev.metahook.testing.Requests;
import dev.metahook.testing.TestServer;
import dev.metahook.testing.Widget;
import dev.metahook.testing.WidgetController;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.EventData;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.restassured.response.Response;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.LoggerFactory;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

/**
 * The spans of hook calls served by the real server over HTTP, as an OpenTelemetry SDK with an in-memory
 * exporter receives them: one server span per call with what it was about, its status on errors, the
 * caller's {@code traceparent} as its parent, a controller's own span as its child; and, with tracing off
 * (no OTEL_* settings), no span at all and the same bytes answered.
 */
class TracingTest {
    private static final String TRACE_ID = "0af7651916cd76f8a5273ed4b1b2f2e1";
    private static final String CALLER_SPAN_ID = "b7ad6b7169203331";
    private static final String TRACEPARENT = "00-" + TRACE_ID + "-" + CALLER_SPAN_ID + "-01";

    private final InMemorySpanExporter exporter = InMemorySpanExporter.create();
    private final OpenTelemetrySdk sdk = OpenTelemetrySdk.builder()
            .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exporter)).build())
            .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
            .build();
    /** What the last call's controller saw as the current span and in the MDC. */
    private final AtomicReference<SpanContext> currentInController = new AtomicReference<>();
    private final AtomicReference<String> traceIdInMdc = new AtomicReference<>();

    @AfterEach
    void closeSdk() {
        sdk.close();
    }

    @Test
    void aSyncIsOneServerSpanWithWhatTheCallWasAbout() {
        try (HookServer server = start(Tracing.to(sdk))) {
            post(server, "/widget/sync", observedSync()).then().statusCode(200);

            SpanData span = only(spans(1));
            assertEquals("POST /widget/sync", span.getName());
            assertEquals(SpanKind.SERVER, span.getKind());
            assertEquals(CallSpans.SCOPE, span.getInstrumentationScopeInfo().getName());
            assertFalse(span.getParentSpanContext().isValid(), "no traceparent: a trace of its own");
            assertEquals(StatusCode.UNSET, span.getStatus().getStatusCode());
            Attributes attributes = span.getAttributes();
            assertEquals("POST", attributes.get(AttributeKey.stringKey("http.request.method")));
            assertEquals("/widget/sync", attributes.get(AttributeKey.stringKey("url.path")));
            assertEquals("/widget/sync", attributes.get(AttributeKey.stringKey("http.route")));
            assertEquals("http", attributes.get(AttributeKey.stringKey("url.scheme")));
            assertEquals(200L, attributes.get(AttributeKey.longKey("http.response.status_code")));
            assertEquals("widget", attributes.get(AttributeKey.stringKey("metahook.controller")));
            assertEquals("sync", attributes.get(AttributeKey.stringKey("metahook.hook")));
            assertEquals("default/hello", attributes.get(AttributeKey.stringKey("metahook.parent")));
            assertEquals(2L, attributes.get(AttributeKey.longKey("metahook.generation")));
            assertEquals("synced", attributes.get(AttributeKey.stringKey("metahook.outcome")));
            assertEquals(2L, attributes.get(AttributeKey.longKey("metahook.observed")));
            assertEquals(1L, attributes.get(AttributeKey.longKey("metahook.desired")));
            assertNull(attributes.get(AttributeKey.stringKey("error.type")));
        }
    }

    @Test
    void theCallersTraceparentAndTracestateAreHonoured() {
        try (HookServer server = start(Tracing.to(sdk))) {
            given().port(server.port()).header("traceparent", TRACEPARENT).header("tracestate", "vendor=opaque")
                    .body(observedSync()).post("/widget/sync").then().statusCode(200);

            SpanData span = only(spans(1));
            assertEquals(TRACE_ID, span.getTraceId());
            assertEquals(CALLER_SPAN_ID, span.getParentSpanId());
            assertTrue(span.getParentSpanContext().isRemote());
            assertEquals("opaque", span.getSpanContext().getTraceState().get("vendor"));
        }
    }

    @Test
    void aCallWithoutTheCredentialsHasItsTraceContextLeftUnread() throws Exception {
        Path token = Files.createTempFile("token", "");
        Files.writeString(token, "s3cret\n");
        try (HookServer server = HookServer.start(new HookEngine(Controllers.builder().composite("widget", Widget.class, new WidgetController()).build(),
                TestServer.CLOCK), HookServer.Options.of(ServerConfig.defaults().withHost("127.0.0.1").withPort(0)
                .withAuth(new ServerConfig.Auth(token, null, null))).tracing(Tracing.to(sdk)))) {
            given().port(server.port()).header("traceparent", TRACEPARENT).header("tracestate", "vendor=opaque")
                    .body(observedSync()).post("/widget/sync").then().statusCode(401);

            SpanData span = only(spans(1));
            assertFalse(span.getParentSpanContext().isValid(), "the caller's traceparent is not read before its credentials are");
            assertNull(span.getSpanContext().getTraceState().get("vendor"));
            assertEquals(401L, span.getAttributes().get(AttributeKey.longKey("http.response.status_code")));
        } finally {
            Files.delete(token);
        }
    }

    @Test
    void whatTheSdkLogsIsOneLineWithoutAStackTraceOnceAMinutePerCause() {
        ListAppender<ILoggingEvent> log = new ListAppender<>();
        log.start();
        Logger logback = (Logger) LoggerFactory.getLogger("io.opentelemetry.api.baggage.propagation.Parser");
        logback.addAppender(log);
        try {
            SdkTracing.logToSlf4j();
            java.util.logging.Logger sdk = java.util.logging.Logger.getLogger("io.opentelemetry.api.baggage.propagation.Parser");
            String member = "a=%zz".repeat(200);
            for (int i = 0; i < 40; i++) {
                sdk.log(java.util.logging.Level.WARNING, "Unparseable baggage member: " + member, new IllegalArgumentException("bad percent-encoding"));
            }
            assertEquals(1, log.list.size(), "one line for forty of the same cause");
            ILoggingEvent line = log.list.get(0);
            assertNull(line.getThrowableProxy(), "no stack trace");
            assertTrue(line.getFormattedMessage().endsWith("..."), line.getFormattedMessage());
            assertEquals(SdkLog.MAX_LENGTH + 3, line.getFormattedMessage().length());
        } finally {
            logback.detachAppender(log);
        }
    }

    @Test
    void aControllersOwnSpanIsAChildOfTheCallsSpan() {
        Tracer tracer = sdk.getTracer("a controller");
        Controllers controllers = Controllers.builder().composite("traced", Widget.class, (widget, context) -> {
            observeCurrent();
            Span render = tracer.spanBuilder("render").startSpan();
            render.end();
            return Result.of();
        }).build();
        try (HookServer server = start(controllers, Tracing.to(sdk))) {
            post(server, "/traced/sync", unobservedSync()).then().statusCode(200);

            List<SpanData> spans = spans(2);
            SpanData call = named(spans, "POST /traced/sync");
            SpanData render = named(spans, "render");
            assertEquals(call.getSpanContext(), currentInController.get(), "Span.current() in the controller is the call's");
            assertEquals(call.getTraceId(), traceIdInMdc.get(), "the controller's log lines carry the trace id");
            assertEquals(call.getTraceId(), render.getTraceId());
            assertEquals(call.getSpanId(), render.getParentSpanId());
            assertEquals(SpanKind.INTERNAL, render.getKind());
        }
    }

    @Test
    void aServerErrorIsTheSpansErrorWithTheControllersException() {
        Controllers controllers = Controllers.builder().composite("failing", Widget.class, (widget, context) -> {
            throw new IllegalStateException("the controller broke");
        }).build();
        try (HookServer server = start(controllers, Tracing.to(sdk))) {
            post(server, "/failing/sync", unobservedSync()).then().statusCode(500);

            SpanData span = only(spans(1));
            assertEquals(StatusCode.ERROR, span.getStatus().getStatusCode());
            assertEquals("controller-failed", span.getStatus().getDescription());
            assertEquals(500L, span.getAttributes().get(AttributeKey.longKey("http.response.status_code")));
            assertEquals("controller-failed", span.getAttributes().get(AttributeKey.stringKey("error.type")));
            assertEquals("controller-failed", span.getAttributes().get(AttributeKey.stringKey("metahook.outcome")));
            EventData exception = only(span.getEvents());
            assertEquals("exception", exception.getName());
            assertEquals(IllegalStateException.class.getName(), exception.getAttributes().get(AttributeKey.stringKey("exception.type")));
            assertEquals("the controller broke", exception.getAttributes().get(AttributeKey.stringKey("exception.message")));
        }
    }

    @Test
    void aClientErrorLeavesTheStatusUnsetAndAnUnknownPathIsNamedByTheRoute() {
        try (HookServer server = start(Tracing.to(sdk))) {
            post(server, "/widget/sync", "{\"controller\": 1}".getBytes()).then().statusCode(400);
            post(server, "/no-such-controller/sync", unobservedSync()).then().statusCode(404);

            List<SpanData> spans = spans(2);
            SpanData malformed = named(spans, "POST /widget/sync");
            assertEquals(StatusCode.UNSET, malformed.getStatus().getStatusCode());
            assertEquals(400L, malformed.getAttributes().get(AttributeKey.longKey("http.response.status_code")));
            assertEquals("malformed-request", malformed.getAttributes().get(AttributeKey.stringKey("metahook.outcome")));
            assertNull(malformed.getAttributes().get(AttributeKey.stringKey("error.type")));
            SpanData unknown = named(spans, "POST /{controller}/{hook}");
            assertEquals(StatusCode.UNSET, unknown.getStatus().getStatusCode());
            assertEquals("/{controller}/{hook}", unknown.getAttributes().get(AttributeKey.stringKey("http.route")));
            assertEquals("/no-such-controller/sync", unknown.getAttributes().get(AttributeKey.stringKey("url.path")));
            assertEquals(404L, unknown.getAttributes().get(AttributeKey.longKey("http.response.status_code")));
            assertEquals("unknown-controller", unknown.getAttributes().get(AttributeKey.stringKey("metahook.outcome")));
        }
    }

    @Test
    void withoutOtelSettingsNothingIsTracedAndTheAnswerIsByteIdentical() {
        Tracing fromEnvironment = Tracing.fromEnvironment(Map.of("PORT", "8080"), new Properties());
        assertSame(Tracing.OFF, fromEnvironment, "no OTEL_* variable: tracing off");
        assertFalse(fromEnvironment.openTelemetry().getTracer("any").spanBuilder("any").startSpan().isRecording());
        Controllers controllers = Controllers.builder().composite("widget", Widget.class, new WidgetController())
                .composite("traced", Widget.class, (widget, context) -> {
                    observeCurrent();
                    return Result.of();
                }).build();
        Response traced;
        Response untraced;
        try (HookServer on = start(controllers, Tracing.to(sdk)); HookServer off = start(controllers, fromEnvironment)) {
            traced = given().port(on.port()).header("traceparent", TRACEPARENT).body(observedSync()).post("/widget/sync");
            untraced = given().port(off.port()).header("traceparent", TRACEPARENT).body(observedSync()).post("/widget/sync");
            given().port(off.port()).header("traceparent", TRACEPARENT).body(unobservedSync()).post("/traced/sync").then().statusCode(200);
        }
        assertEquals(200, untraced.statusCode());
        assertArrayEquals(traced.asByteArray(), untraced.asByteArray());
        assertEquals(traced.header("ETag"), untraced.header("ETag"));
        assertEquals(traced.header("Content-Type"), untraced.header("Content-Type"));
        assertFalse(currentInController.get().isValid(), "no current span in a controller: " + currentInController.get());
        assertNull(traceIdInMdc.get(), "no trace id in the MDC");
        assertEquals(1, spans(1).size(), "the traced server's call alone: " + exporter.getFinishedSpanItems());
    }

    @Test
    void theOtelSettingsTurnTracingOnAsAutoconfigureReadsThem() {
        assertFalse(wanted(Map.of()), "nothing set");
        assertTrue(wanted(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318")));
        assertTrue(wanted(Map.of("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "http://collector:4318/v1/traces")));
        assertTrue(wanted(Map.of("OTEL_TRACES_EXPORTER", "otlp")));
        assertTrue(wanted(Map.of("OTEL_TRACES_EXPORTER", "none, console")));
        assertFalse(wanted(Map.of("OTEL_TRACES_EXPORTER", "none", "OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318")));
        assertFalse(wanted(Map.of("OTEL_SDK_DISABLED", "true", "OTEL_TRACES_EXPORTER", "otlp")));
        assertFalse(wanted(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", " ")), "blank is not set");
        assertFalse(wanted(Map.of("OTEL_SERVICE_NAME", "greeting", "OTEL_METRICS_EXPORTER", "otlp")), "traces only");
        Properties properties = new Properties();
        properties.setProperty("otel.traces.exporter", "none");
        assertFalse(Tracing.wanted(name -> Tracing.setting(name, Map.of("OTEL_TRACES_EXPORTER", "otlp"), properties)),
                "a system property wins over the variable, as in autoconfigure");
    }

    @Test
    void theDefaultsAreTracesOverOtlpHttpFromServiceMetahook() {
        assertEquals("metahook", SdkTracing.defaults(settings(Map.of())).get("otel.service.name"));
        assertEquals("none", SdkTracing.defaults(settings(Map.of())).get("otel.metrics.exporter"));
        assertEquals("none", SdkTracing.defaults(settings(Map.of())).get("otel.logs.exporter"));
        assertEquals("http/protobuf", SdkTracing.defaults(settings(Map.of())).get("otel.exporter.otlp.protocol"));
        assertEquals("tracecontext", SdkTracing.defaults(settings(Map.of())).get("otel.propagators"), "no baggage unless asked for");
        assertNull(SdkTracing.defaults(settings(Map.of("OTEL_SERVICE_NAME", "greeting"))).get("otel.service.name"));
        assertNull(SdkTracing.defaults(settings(Map.of("OTEL_RESOURCE_ATTRIBUTES", "team=a, service.name=greeting"))).get("otel.service.name"));
        assertEquals("metahook", SdkTracing.defaults(settings(Map.of("OTEL_RESOURCE_ATTRIBUTES", "my.service.name=x"))).get("otel.service.name"));
    }

    private void observeCurrent() {
        currentInController.set(Span.current().getSpanContext());
        traceIdInMdc.set(MDC.get(CallSpans.TRACE_ID));
    }

    private static boolean wanted(Map<String, String> environment) {
        return Tracing.wanted(settings(environment));
    }

    private static UnaryOperator<String> settings(Map<String, String> environment) {
        return name -> Tracing.setting(name, new HashMap<>(environment), new Properties());
    }

    private static HookServer start(Tracing tracing) {
        return start(Controllers.builder().composite("widget", Widget.class, new WidgetController()).build(), tracing);
    }

    private static HookServer start(Controllers controllers, Tracing tracing) {
        return HookServer.start(new HookEngine(controllers, TestServer.CLOCK),
                HookServer.Options.of(ServerConfig.defaults().withHost("127.0.0.1").withPort(0)).tracing(tracing));
    }

    private static Response post(HookServer server, String path, byte[] body) {
        return given().port(server.port()).contentType("application/json").body(body).post(path);
    }

    private static byte[] observedSync() {
        return Requests.bytes(Requests.sync(Requests.widget("hello", 3, "hi"),
                List.of(Requests.observedConfigMap("hello", 3, "hi"), Requests.observedConfigMap("old", 1, "x")), false));
    }

    private static byte[] unobservedSync() {
        return Requests.bytes(Requests.sync(Requests.widget("hello", 3, "hi"), List.of(), false));
    }

    /**
     * The spans exported so far, once there are {@code count}: a span ends after its answer is written, so
     * the client may have it a moment before the exporter does. Waits on the count, never on a time.
     */
    private List<SpanData> spans(int count) {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (exporter.getFinishedSpanItems().size() < count && System.nanoTime() < deadline) {
            LockSupport.parkNanos(1_000_000);
        }
        List<SpanData> spans = exporter.getFinishedSpanItems();
        assertEquals(count, spans.size(), spans.toString());
        return spans;
    }

    private static SpanData named(List<SpanData> spans, String name) {
        return only(spans.stream().filter(span -> span.getName().equals(name)).toList());
    }

    private static <T> T only(List<T> items) {
        assertEquals(1, items.size(), items.toString());
        return items.get(0);
    }
}
