package dev.metahook.internal.sim;

import dev.metahook.internal.engine.HookAnswer;
import dev.metahook.internal.engine.HookEngine;
import java.time.Duration;

/**
 * One of metahook's own controllers, called without a network. Its calls are not timed (the reply
 * says zero): what they take is this JVM's class loading, JIT and load, not a hook's network answer,
 * so it can never be {@code too-slow}.
 */
public final class InProcessHook implements HookClient {
    private final HookEngine engine;
    private final String controller;

    public InProcessHook(HookEngine engine, String controller) {
        this.engine = engine;
        this.controller = controller;
    }

    @Override
    public Reply call(String hook, byte[] body) {
        HookAnswer answer = engine.handle(controller, hook, body);
        return new Reply(answer.status(), answer.headers(), answer.body(), Duration.ZERO, null);
    }
}
