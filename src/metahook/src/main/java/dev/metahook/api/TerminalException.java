package dev.metahook.api;

/**
 * The parent cannot be acted on until a person changes it (an invalid spec). The hook still answers
 * 200, so Metacontroller does not retry in a storm: a composite's status gets {@code Stalled=True}
 * with this reason and message, and every observed child is kept exactly as last applied (see
 * {@link StalledHandler}).
 */
public class TerminalException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final String reason;

    /**
     * @param reason a CamelCase reason as Kubernetes conditions require, such as {@code InvalidSpec}
     * @throws IllegalArgumentException when the reason is not one, here rather than later as a 500
     */
    public TerminalException(String reason, String message) {
        super(message);
        this.reason = Conditions.checkReason(reason);
    }

    /** A CamelCase reason for the {@code Stalled} condition, such as {@code InvalidSpec}. */
    public String reason() {
        return reason;
    }
}
