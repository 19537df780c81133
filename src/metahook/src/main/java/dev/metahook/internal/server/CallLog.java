package dev.metahook.internal.server;

import dev.metahook.internal.engine.HookAnswer;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One structured line per hook call: controller, hook, parent, generation, outcome, status code,
 * duration and children counts, as key-value pairs (JSON fields in the container). Bodies only at
 * debug level, with Secret data redacted; credentials never, since they live in headers this never reads.
 */
final class CallLog {
    private static final Logger LOG = LoggerFactory.getLogger("metahook.calls");

    private CallLog() {
    }

    static void log(String controller, String hook, HookAnswer answer, int status, Duration took, byte[] request) {
        HookAnswer.Facts facts = answer.facts();
        var line = (status >= 500 ? LOG.atWarn() : LOG.atInfo())
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
