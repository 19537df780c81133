package dev.metahook.internal.engine;

import java.util.Map;

/**
 * The engine's answer to one hook call, ready to be written as HTTP: status, content type, headers
 * and the exact body bytes. {@code outcome} says in one word how the call went and {@code facts}
 * what it was about, for logs and metrics.
 */
public record HookAnswer(int status, String contentType, Map<String, String> headers, byte[] body, String outcome, Facts facts) {
    public static final String JSON = "application/json";

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

    static HookAnswer problem(Problem problem, Map<String, String> headers) {
        return new HookAnswer(problem.status(), Problem.MEDIA_TYPE, headers, problem.toBytes(), problem.type(), Facts.NONE);
    }

    HookAnswer about(Facts request) {
        return new HookAnswer(status, contentType, headers, body, outcome, request.withDesired(facts.desired()));
    }
}
