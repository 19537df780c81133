package dev.metahook.internal.sim;

import dev.metahook.internal.engine.HookAnswer;
import dev.metahook.internal.engine.HookEngine;
import java.time.Duration;

/** One of metahook's own controllers, called without a network. */
public final class InProcessHook implements HookClient {
    private final HookEngine engine;
    private final String controller;

    public InProcessHook(HookEngine engine, String controller) {
        this.engine = engine;
        this.controller = controller;
    }

    @Override
    public Reply call(String hook, byte[] body) {
        long started = System.nanoTime();
        HookAnswer answer = engine.handle(controller, hook, body);
        return new Reply(answer.status(), answer.headers(), answer.body(), Duration.ofNanos(System.nanoTime() - started), null);
    }
}
