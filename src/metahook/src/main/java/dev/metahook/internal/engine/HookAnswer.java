package dev.metahook.internal.engine;

import dev.metahook.internal.wire.CallBudget;
import java.util.Map;

/**
 * The engine's answer to one hook call, ready to be written as HTTP: status, content type, headers
 * and the exact body bytes. {@code outcome} says in one word how the call went and {@code facts}
 * what it was about, for logs and metrics.
 */
public record HookAnswer(int status, String contentType, Map<String, String> headers, byte[] body, String outcome, Facts facts) {
    public static final String JSON = "application/json";
    /** When a call refused for memory may come again. */
    public static final int OVERLOADED_RETRY_AFTER_SECONDS = 1;

    public HookAnswer {
        headers = Map.copyOf(headers);
        facts = facts == null ? Facts.NONE : facts;
    }

    /**
     * What a call was about: the parent ({@code namespace/name}, empty when the request could not be
     * read), its generation (-1 when unknown), and how many children were observed and desired.
     */
    public record Facts(String parent, long generation, int observed, int desired) {
        static final Facts NONE = new Facts("", -1, 0, 0);

        Facts withDesired(int count) {
            return new Facts(parent, generation, observed, count);
        }
    }

    /** This answer as logged and counted when it could not be written whole: outcome {@code write-failed}, no body. */
    public HookAnswer writeFailed() {
        return new HookAnswer(status, contentType, Map.of(), new byte[0], "write-failed", facts);
    }

    static HookAnswer ok(byte[] body, String outcome, int desired) {
        return new HookAnswer(200, JSON, Map.of(), body, outcome, new Facts("", -1, 0, desired));
    }

    /** A problem answer made outside the engine (credentials, size), for logs and metrics. */
    public static HookAnswer problem(Problem problem) {
        return problem(problem, Map.of());
    }

    /**
     * A status and an outcome with no body, for logs and metrics when no answer could be written
     * (the connection failed first).
     */
    public static HookAnswer outcomeOnly(int status, String outcome) {
        return new HookAnswer(status, Problem.MEDIA_TYPE, Map.of(), new byte[0], outcome, Facts.NONE);
    }

    /**
     * The answer to a call its memory budget refused, before its body was read (the server's admission)
     * or while it was decoded and answered (the engine): {@code 503} with {@code Retry-After} when the
     * budget stays spent, {@code 413} saying why when no budget of this heap could hold the call. Nothing
     * a controller worked out from what it did read is answered.
     */
    public static HookAnswer refused(CallBudget.Refused refused) {
        if (refused.fitsLater()) {
            return problem(Problem.of("overloaded", "Service overloaded", 503,
                    "the service is answering as many calls as its memory allows; retry shortly"),
                    Map.of("Retry-After", Integer.toString(OVERLOADED_RETRY_AFTER_SECONDS)));
        }
        return problem(Problem.of("body-too-costly", "Request too large for memory", 413, refused.getMessage()));
    }

    static HookAnswer problem(Problem problem, Map<String, String> headers) {
        return new HookAnswer(problem.status(), Problem.MEDIA_TYPE, headers, problem.toBytes(), problem.type(), Facts.NONE);
    }

    HookAnswer about(Facts request) {
        return new HookAnswer(status, contentType, headers, body, outcome, request.withDesired(facts.desired()));
    }
}
