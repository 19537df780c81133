package dev.metahook.engine;

import java.util.List;

/**
 * A response the engine refuses to send because Metacontroller would fail on it or it would do harm.
 * Each violation names the child and the rule.
 */
final class GuardViolation extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final List<String> violations;

    GuardViolation(List<String> violations) {
        super(String.join("; ", violations));
        this.violations = List.copyOf(violations);
    }

    List<String> violations() {
        return violations;
    }
}
