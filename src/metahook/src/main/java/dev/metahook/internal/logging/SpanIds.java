package dev.metahook.internal.logging;

import ch.qos.logback.classic.spi.ILoggingEvent;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The MDC a line is written with: the event's, with {@code trace_id} and {@code span_id} (the keys OpenTelemetry's
 * Logback MDC instrumentation uses) taken from the span current where the line was logged. The server puts the hook
 * call's ids in the MDC; a controller's own span, made current inside the call, cannot change the MDC, so the ids are
 * read again when the line is encoded, on the thread that logged it (the console appender writes as it is called).
 *
 * <p>Not OpenTelemetry's {@code opentelemetry-logback-mdc-1.0} appender: with the two instrumentation jars it declares
 * it would add over half a megabyte to a service's class path, and it leaves alone an event whose MDC has a trace id
 * already, which the server's MDC always has during a call.
 */
final class SpanIds {
    static final String TRACE_ID = "trace_id";
    static final String SPAN_ID = "span_id";

    private SpanIds() {
    }

    static Map<String, String> mdc(ILoggingEvent event) {
        Map<String, String> mdc = event.getMDCPropertyMap();
        SpanContext current = Span.current().getSpanContext();
        if (!current.isValid() || current.getSpanId().equals(mdc.get(SPAN_ID)) && current.getTraceId().equals(mdc.get(TRACE_ID))) {
            return mdc;
        }
        Map<String, String> withIds = new LinkedHashMap<>(mdc);
        withIds.put(TRACE_ID, current.getTraceId());
        withIds.put(SPAN_ID, current.getSpanId());
        return withIds;
    }
}
