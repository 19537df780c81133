package dev.metahook.internal.engine;

import dev.metahook.internal.contract.Breach;
import java.util.List;

/**
 * A response the engine refuses to send because Metacontroller would fail on it or it would do harm.
 * Each violation reads {@code rule: detail}, the rule named as {@code check} names its breach.
 */
final class GuardViolation extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final List<String> violations;

    GuardViolation(List<Breach> breaches) {
        super(String.join("; ", breaches.stream().map(Breach::toString).toList()));
        this.violations = breaches.stream().map(Breach::toString).toList();
    }

    List<String> violations() {
        return violations;
    }
}
