package dev.metahook.api;

/**
 * The parent cannot be acted on until a person changes it (an invalid spec). The hook still answers
 * 200, so Metacontroller does not retry in a storm: the status gets {@code Stalled=True} with this
 * reason and message, and every observed child is kept exactly as last applied.
 */
public class TerminalException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final String reason;

    public TerminalException(String reason, String message) {
        super(message);
        this.reason = reason;
    }

    /** A CamelCase reason for the {@code Stalled} condition, such as {@code InvalidSpec}. */
    public String reason() {
        return reason;
    }
}
