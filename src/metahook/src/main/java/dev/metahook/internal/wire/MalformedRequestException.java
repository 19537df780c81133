package dev.metahook.internal.wire;

/**
 * A request body that is not a well-formed Metacontroller request. The pointer (RFC 6901) names the
 * offending field, so the 400 answer can say exactly what was wrong.
 */
public final class MalformedRequestException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final String pointer;

    public MalformedRequestException(String pointer, String message) {
        super(message);
        this.pointer = pointer;
    }

    /** The JSON pointer of the field at fault; empty for the whole body. */
    public String pointer() {
        return pointer;
    }
}
