package dev.metahook.engine;

import java.util.Map;

/**
 * The engine's answer to one hook call, ready to be written as HTTP: status, content type, headers
 * and the exact body bytes. {@code outcome} says in one word how the call went, for logs and metrics.
 */
public record HookAnswer(int status, String contentType, Map<String, String> headers, byte[] body, String outcome) {
    public static final String JSON = "application/json";

    public HookAnswer {
        headers = Map.copyOf(headers);
    }

    static HookAnswer ok(byte[] body, String outcome) {
        return new HookAnswer(200, JSON, Map.of(), body, outcome);
    }

    static HookAnswer problem(Problem problem) {
        return problem(problem, Map.of());
    }

    static HookAnswer problem(Problem problem, Map<String, String> headers) {
        return new HookAnswer(problem.status(), Problem.MEDIA_TYPE, headers, problem.toBytes(), problem.type());
    }
}
