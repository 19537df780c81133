package dev.metahook.internal.server;

import dev.metahook.internal.engine.HookAnswer;
import dev.metahook.internal.engine.HookEngine;
import dev.metahook.internal.engine.Problem;
import io.javalin.http.Context;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves one hook call, {@code POST /<controller>/<hook>}: credentials, the body ({@link BodyIntake}),
 * the engine's answer, written with its status, headers and ETag; then the call is logged, counted and,
 * when tracing is on, its span ended ({@link CallSpans}). Every answer is either the engine's or a
 * problem+json naming what was wrong with the call itself (credentials, size). {@link HookServer} owns
 * the listeners and the routes; this class, what a call does.
 */
final class HookHandler {
    private static final Logger LOG = LoggerFactory.getLogger(HookHandler.class);
    /** How long a client may pause reading an answer: generous (a 12 MB answer to a client that stops for 7 s arrives whole), and apart from the request body's 5 s. */
    static final Duration WRITE_IDLE_TIMEOUT = Duration.ofSeconds(30);

    private final HookEngine engine;
    private final HookMetrics metrics;
    private final CallSpans spans;
    private final Authenticator authenticator;
    private final BodyIntake intake;
    private final Drain drain;
    private final long maxBodySize;

    HookHandler(HookEngine engine, HookMetrics metrics, CallSpans spans, Authenticator authenticator, BodyIntake intake, Drain drain,
                long maxBodySize) {
        this.engine = engine;
        this.metrics = metrics;
        this.spans = spans;
        this.authenticator = authenticator;
        this.intake = intake;
        this.drain = drain;
        this.maxBodySize = maxBodySize;
    }

    /**
     * A hook call, under its span (none for a warm-up call, which is neither logged nor counted either). The
     * credentials are checked first: nothing else a caller sends (trace context, baggage, body) is read before.
     */
    void hook(Context ctx) throws IOException {
        boolean allowed = authenticator.allows(ctx.header("Authorization"));
        Span span = WarmUp.isWarmUp(ctx.req()) ? Span.getInvalid() : spans.start(ctx, allowed);
        try (Scope current = CallSpans.current(span)) {
            call(ctx, span, allowed);
        }
    }

    private void call(Context ctx, Span span, boolean allowed) throws IOException {
        long started = System.nanoTime();
        PauseLimits.restoreWhenWritten(ctx.req());
        boolean counted = !WarmUp.isWarmUp(ctx.req());
        if (counted) {
            metrics.started();
            Drain.whenWritten(ctx.req(), metrics::done);
        }
        String controller = ctx.pathParam("controller");
        String hook = ctx.pathParam("hook");
        HookAnswer answer;
        int status;
        byte[] body = new byte[0];
        try {
            if (!allowed) {
                controller = CallLog.bounded(controller);
                hook = CallLog.bounded(hook);
                answer = rejected(ctx);
            } else {
                BodyIntake.Intake taken = intake.take(ctx.req());
                if (taken instanceof BodyIntake.Read read) {
                    body = read.body();
                    answer = engine.handle(controller, hook, body, read.budget());
                } else {
                    answer = refusal(ctx, taken);
                }
            }
            if (drain.closing()) {
                ctx.header("Connection", "close");
            }
            status = head(ctx, answer);
        } catch (IOException | RuntimeException e) {
            Optional<Problem> clientFault = BodyFailure.of(e);
            if (clientFault.isEmpty()) {
                drain.unanswered(ctx.req(), e.toString());
                observe(controller, hook, HookAnswer.outcomeOnly(500, "io-error"), 500, Duration.ofNanos(System.nanoTime() - started), new byte[0], span);
                throw e;
            }
            ctx.header("Connection", "close");
            answer = HookAnswer.problem(clientFault.get());
            status = head(ctx, answer);
            counted = true;
            body = new byte[0];
        }
        boolean written = status == 304 || send(ctx, answer.body());
        if (!written) {
            drain.unanswered(ctx.req(), "the answer (" + status + ") could not be written");
        }
        if (counted) {
            observe(controller, hook, written ? answer : answer.writeFailed(), written ? status : 0,
                    Duration.ofNanos(System.nanoTime() - started), body, span);
        } else {
            rehearse(controller, hook, answer, status, Duration.ofNanos(System.nanoTime() - started));
        }
    }

    /** The answer to a body that was not read: refused by the intake (with the connection's headers it needs), or too large. */
    private HookAnswer refusal(Context ctx, BodyIntake.Intake taken) {
        if (taken instanceof BodyIntake.Refused refused) {
            refused.headers().forEach(ctx::header);
            return refused.answer();
        }
        ctx.header("Connection", "close");
        return HookAnswer.problem(Problem.of("body-too-large", "Request body too large", 413,
                "the request body is larger than the limit of " + maxBodySize + " bytes (MAX_BODY_SIZE)"));
    }

    /** Logs, counts and ends the span of a call; none of them may ever change an answer that is already written. */
    private void observe(String controller, String hook, HookAnswer answer, int status, Duration took, byte[] body, Span span) {
        try {
            CallLog.log(controller, hook, answer, status, took, body);
        } catch (RuntimeException e) {
            LOG.warn("could not log a hook call: {}", e.toString());
        }
        try {
            metrics.finished(controller, hook, answer, status, took);
        } catch (RuntimeException e) {
            LOG.warn("could not record a hook call: {}", e.toString());
        }
        try {
            CallSpans.end(span, controller, hook, answer, status);
        } catch (RuntimeException e) {
            LOG.warn("could not end a hook call's span: {}", e.toString());
        }
    }

    /** Records a warm-up call apart ({@link HookMetrics#rehearsed}), so the first served call finds the metrics' code warm. */
    private void rehearse(String controller, String hook, HookAnswer answer, int status, Duration took) {
        try {
            metrics.rehearsed(controller, hook, answer, status, took);
        } catch (RuntimeException e) {
            LOG.debug("could not rehearse the metrics of a warm-up call: {}", e.toString());
        }
    }

    /** Sets the answer's status and headers, with an ETag on every 200 and a 304 when the caller already has it; returns the status. */
    private static int head(Context ctx, HookAnswer answer) {
        answer.headers().forEach(ctx::header);
        if (answer.status() == 200) {
            String etag = ETags.of(answer.body());
            ctx.header("ETag", etag);
            if (etag.equals(ctx.header("If-None-Match"))) {
                ctx.status(304);
                return 304;
            }
        }
        ctx.status(answer.status()).contentType(answer.contentType());
        return answer.status();
    }

    /**
     * Writes the body straight to the response with its length (a result handed to Javalin is copied
     * through a 32 KiB buffer of its own on every call, which was a fifth of what a WebApp sync
     * allocated), under {@link #WRITE_IDLE_TIMEOUT} rather than the request body's 5 s pause limit;
     * the connection's keep-alive limit is back once the answer is done. False when the client was
     * gone or paused reading past the limit: the answer was not written whole, and the call is logged
     * and counted {@code write-failed}.
     */
    private static boolean send(Context ctx, byte[] body) {
        try {
            ctx.res().setContentLength(body.length);
            PauseLimits.set(ctx.req(), WRITE_IDLE_TIMEOUT);
            ctx.res().getOutputStream().write(body);
            return true;
        } catch (IOException gone) {
            LOG.debug("could not write an answer: {}", gone.toString());
            return false;
        }
    }

    /**
     * A {@code 401}, answered without reading the body: a body that may still be on its way leaves the
     * connection unusable (Jetty closes it rather than read what an unauthenticated caller sends), so the
     * answer says {@code Connection: close} whenever the call has one, and the client knows not to reuse it.
     */
    private HookAnswer rejected(Context ctx) {
        ctx.header("WWW-Authenticate", authenticator.challenge());
        if (ctx.req().getContentLengthLong() != 0) {
            ctx.header("Connection", "close");
        }
        return HookAnswer.problem(Problem.of("unauthorized", "Unauthorized", 401,
                "hook calls need the credentials this service is configured with (Authorization header)"));
    }
}
