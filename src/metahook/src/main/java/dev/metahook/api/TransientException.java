package dev.metahook.api;

import java.time.Duration;

/**
 * Something the hook needs is not there yet and will be. The hook answers 429 with
 * {@code Retry-After}: Metacontroller calls again after that delay, with no error event and no
 * exponential backoff.
 */
public class TransientException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final Duration retryAfter;

    public TransientException(String message, Duration retryAfter) {
        super(message);
        if (retryAfter.isNegative()) {
            throw new IllegalArgumentException("retry delay is negative: " + retryAfter);
        }
        this.retryAfter = retryAfter;
    }

    public Duration retryAfter() {
        return retryAfter;
    }
}
