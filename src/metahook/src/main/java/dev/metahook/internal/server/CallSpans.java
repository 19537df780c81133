package dev.metahook.internal.server;

import dev.metahook.api.Controllers;
import dev.metahook.api.Hook;
import dev.metahook.internal.engine.HookAnswer;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapPropagator;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Collections;
import org.slf4j.MDC;

/**
 * One server span per hook call, child of the caller's span when the request carries one ({@code
 * traceparent}, {@code tracestate}: whatever propagators the OpenTelemetry has, W3C trace context by
 * default). Current while the call is answered, so a controller's own spans are its children and its log
 * lines carry {@code trace_id} and {@code span_id}; ended once the answer is written, with what the call
 * was about. Attribute names are OpenTelemetry's HTTP semantic conventions where they have one, {@code
 * metahook.*} for the rest. A server error (5xx, or an answer not written whole) is the span's error; a
 * 4xx is the caller's, and leaves the status unset, as the conventions have it for a server.
 */
final class CallSpans {
    static final String SCOPE = "dev.metahook";
    static final AttributeKey<String> METHOD = AttributeKey.stringKey("http.request.method");
    static final AttributeKey<String> ROUTE = AttributeKey.stringKey("http.route");
    static final AttributeKey<String> PATH = AttributeKey.stringKey("url.path");
    static final AttributeKey<String> SCHEME = AttributeKey.stringKey("url.scheme");
    static final AttributeKey<Long> STATUS_CODE = AttributeKey.longKey("http.response.status_code");
    static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");
    static final AttributeKey<String> CONTROLLER = AttributeKey.stringKey("metahook.controller");
    static final AttributeKey<String> HOOK = AttributeKey.stringKey("metahook.hook");
    static final AttributeKey<String> PARENT = AttributeKey.stringKey("metahook.parent");
    static final AttributeKey<Long> GENERATION = AttributeKey.longKey("metahook.generation");
    static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("metahook.outcome");
    static final AttributeKey<Long> OBSERVED = AttributeKey.longKey("metahook.observed");
    static final AttributeKey<Long> DESIRED = AttributeKey.longKey("metahook.desired");
    /** The MDC keys of the call's span, as OpenTelemetry's own Logback integration names them. */
    static final String TRACE_ID = "trace_id";
    static final String SPAN_ID = "span_id";

    private final boolean on;
    private final Tracer tracer;
    private final TextMapPropagator propagator;
    private final Controllers controllers;

    CallSpans(Tracing tracing, Controllers controllers) {
        this.on = tracing.on();
        this.tracer = tracing.openTelemetry().getTracer(SCOPE);
        this.propagator = tracing.openTelemetry().getPropagators().getTextMapPropagator();
        this.controllers = controllers;
    }

    /**
     * Starts the span of the call {@code POST /<controller>/<hook>} (not current yet: {@link #current}); the
     * invalid span, which does nothing, when tracing is off. The caller's trace context is read only from an
     * {@code authenticated} call: one without the credentials costs no more than its headers' bytes, and gets
     * a trace of its own. Named {@code POST} and its route: the path itself
     * when it is a registered controller's hook, {@code /{controller}/{hook}} otherwise.
     */
    Span start(io.javalin.http.Context call, boolean authenticated) {
        if (!on) {
            return Span.getInvalid();
        }
        HttpServletRequest request = call.req();
        String route = route(call.pathParam("controller"), call.pathParam("hook"));
        Context parent = authenticated ? propagator.extract(Context.root(), request, Headers.INSTANCE) : Context.root();
        return tracer.spanBuilder("POST " + route)
                .setParent(parent)
                .setSpanKind(SpanKind.SERVER)
                .setAttribute(METHOD, "POST")
                .setAttribute(ROUTE, route)
                .setAttribute(PATH, CallLog.bounded(request.getRequestURI()))
                .setAttribute(SCHEME, request.getScheme())
                .startSpan();
    }

    /** Makes the span current on this thread, its ids in the MDC, until the scope is closed; nothing for the invalid span. */
    static Scope current(Span span) {
        SpanContext context = span.getSpanContext();
        if (!context.isValid()) {
            return Scope.noop();
        }
        Scope scope = span.makeCurrent();
        MDC.put(TRACE_ID, context.getTraceId());
        MDC.put(SPAN_ID, context.getSpanId());
        return () -> {
            MDC.remove(TRACE_ID);
            MDC.remove(SPAN_ID);
            scope.close();
        };
    }

    /**
     * Ends the span with what the call was about and how it went; {@code status} 0 when the answer could not
     * be written whole. The controller and hook are as logged (cut short for an unauthenticated caller).
     */
    static void end(Span span, String controller, String hook, HookAnswer answer, int status) {
        if (span.isRecording()) {
            HookAnswer.Facts facts = answer.facts();
            span.setAttribute(CONTROLLER, controller);
            span.setAttribute(HOOK, hook);
            if (!facts.parent().isEmpty()) {
                span.setAttribute(PARENT, facts.parent());
            }
            if (facts.generation() >= 0) {
                span.setAttribute(GENERATION, facts.generation());
            }
            span.setAttribute(OUTCOME, answer.outcome());
            span.setAttribute(OBSERVED, (long) facts.observed());
            span.setAttribute(DESIRED, (long) facts.desired());
            if (status > 0) {
                span.setAttribute(STATUS_CODE, (long) status);
            }
            if (status >= 500 || status == 0) {
                span.setAttribute(ERROR_TYPE, answer.outcome());
                span.setStatus(StatusCode.ERROR, answer.outcome());
            }
        }
        span.end();
    }

    private String route(String controller, String hook) {
        Hook served = Hook.fromSegment(hook);
        boolean registered = served != null && controllers.get(controller).map(r -> r.hooks().contains(served)).orElse(false);
        return registered ? "/" + controller + "/" + hook : "/{controller}/{hook}";
    }

    /** The request's headers, as the propagators read them. */
    private enum Headers implements TextMapGetter<HttpServletRequest> {
        INSTANCE;

        @Override
        public Iterable<String> keys(HttpServletRequest request) {
            return Collections.list(request.getHeaderNames());
        }

        @Override
        public String get(HttpServletRequest request, String key) {
            return request == null ? null : request.getHeader(key);
        }
    }
}
