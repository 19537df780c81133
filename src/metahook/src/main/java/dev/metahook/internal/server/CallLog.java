package dev.metahook.internal.server;

import dev.metahook.internal.engine.HookAnswer;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One structured line per hook call: controller, hook, parent, generation, outcome, status code,
 * duration and children counts, as key-value pairs (JSON fields in the container). Bodies only at
 * debug level, with Secret data redacted; credentials never, since they live in headers this never reads. An
 * unauthenticated caller's controller and hook segments are logged {@link #bounded}; every value is escaped by the
 * log's encoder, so no caller can write a line of its own.
 */
final class CallLog {
    private static final Logger LOG = LoggerFactory.getLogger("metahook.calls");

    static final int BOUND = 64;

    private CallLog() {
    }

    /** What an unauthenticated caller put in a path segment, as logged: at most {@value #BOUND} characters (the log's encoder escapes them). */
    static String bounded(String segment) {
        return segment.length() <= BOUND ? segment : segment.substring(0, BOUND) + "...";
    }

    static void log(String controller, String hook, HookAnswer answer, int status, Duration took, byte[] request) {
        HookAnswer.Facts facts = answer.facts();
        var line = (status >= 500 || status == 0 ? LOG.atWarn() : LOG.atInfo())
                .addKeyValue("controller", controller)
                .addKeyValue("hook", hook)
                .addKeyValue("parent", facts.parent())
                .addKeyValue("generation", facts.generation())
                .addKeyValue("outcome", answer.outcome())
                .addKeyValue("status", status)
                .addKeyValue("durationMs", took.toNanos() / 1_000_000.0)
                .addKeyValue("observed", facts.observed())
                .addKeyValue("desired", facts.desired());
        line.log("hook call");
        if (LOG.isDebugEnabled()) {
            LOG.atDebug().addKeyValue("controller", controller).addKeyValue("hook", hook)
                    .addKeyValue("request", SecretRedaction.of(request))
                    .addKeyValue("response", SecretRedaction.of(answer.body()))
                    .log("hook call bodies");
        }
    }
}
