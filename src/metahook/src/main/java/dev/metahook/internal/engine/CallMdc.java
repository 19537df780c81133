package dev.metahook.internal.engine;

import java.util.function.Supplier;
import org.slf4j.MDC;

/**
 * What every log line written during a controller call carries in the MDC: {@code controller} (its
 * registered name), {@code hook} ({@code sync}, {@code finalize}, {@code customize}), {@code parent}
 * ({@code namespace/name}, or the name of a cluster-scoped object) and {@code generation} (when the
 * object has one). Set on the calling thread around the call and removed after it, so a line a
 * controller logs says which object it was about.
 */
final class CallMdc {
    static final String CONTROLLER = "controller";
    static final String HOOK = "hook";
    static final String PARENT = "parent";
    static final String GENERATION = "generation";

    private CallMdc() {
    }

    static <T> T around(String controller, String hook, HookAnswer.Facts facts, Supplier<T> call) {
        MDC.put(CONTROLLER, controller);
        MDC.put(HOOK, hook);
        MDC.put(PARENT, facts.parent());
        if (facts.generation() >= 0) {
            MDC.put(GENERATION, Long.toString(facts.generation()));
        }
        try {
            return call.get();
        } finally {
            MDC.remove(CONTROLLER);
            MDC.remove(HOOK);
            MDC.remove(PARENT);
            MDC.remove(GENERATION);
        }
    }
}
