package dev.metahook.spring;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.metahook.Server;
import dev.metahook.spring.greeting.GreetingApplication;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;

/** With an OpenTelemetry bean (Boot's tracing), every hook call is a span through it, the caller's traceparent its parent. */
@SpringBootTest(classes = {GreetingApplication.class, TracingTest.Tracing.class},
        properties = {"metahook.host=127.0.0.1", "metahook.port=0", "metahook.shutdown-idle-seconds=0"})
class TracingTest {
    private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String CALLER = "00f067aa0ba902b7";

    @Autowired
    Server server;
    @Autowired
    InMemorySpanExporter spans;

    @Test
    void spansEachHookCallThroughTheApplicationsOpenTelemetry() throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/greeting/sync"))
                .header("Content-Type", "application/json").header("traceparent", "00-" + TRACE + "-" + CALLER + "-01")
                .POST(HttpRequest.BodyPublishers.ofString(HookCalls.SYNC)).build();
        assertEquals(200, HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.discarding()).statusCode());

        // the span ends once the answer is written, which the client may see first
        List<SpanData> finished = await().atMost(Duration.ofSeconds(30)).until(spans::getFinishedSpanItems, list -> !list.isEmpty());
        SpanData call = finished.get(0);
        assertEquals("POST /greeting/sync", call.getName());
        assertEquals(TRACE, call.getTraceId());
        assertEquals(CALLER, call.getParentSpanId());
    }

    @TestConfiguration(proxyBeanMethods = false)
    static class Tracing {
        @Bean
        InMemorySpanExporter spans() {
            return InMemorySpanExporter.create();
        }

        @Bean
        OpenTelemetry openTelemetry(InMemorySpanExporter spans) {
            return OpenTelemetrySdk.builder()
                    .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(spans)).build())
                    .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance())).build();
        }
    }
}
