package dev.metahook.internal.server;

import dev.metahook.internal.engine.Problem;
import java.io.EOFException;
import java.util.Optional;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.http.HttpException;
import org.eclipse.jetty.io.EofException;

/**
 * A request body that could not be read through the client's doing, and the answer it deserves:
 * {@code 408} when the body stopped coming, {@code 400} when its framing is broken (shorter than its
 * Content-Length, a chunk size that is not a size). Never a {@code 500}: the service did nothing wrong.
 */
final class BodyFailure {
    private BodyFailure() {
    }

    /** The problem to answer a failed read with, or empty when the failure is not the client's (the caller rethrows it). */
    static Optional<Problem> of(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof TimeoutException || cause instanceof HttpException timedOut && timedOut.getCode() == 408) {
                return Optional.of(Problem.of("body-timeout", "Request timeout", 408,
                        "the request body stopped arriving before it was complete; send the whole body at once"));
            }
            if (cause instanceof HttpException http && http.getCode() >= 400 && http.getCode() < 500) {
                return Optional.of(badFraming(http.getReason()));
            }
            if (cause instanceof EOFException || cause instanceof EofException) {
                return Optional.of(badFraming(cause.getMessage()));
            }
        }
        return Optional.empty();
    }

    private static Problem badFraming(String reason) {
        String why = reason == null || reason.isBlank() ? "" : " (" + reason + ")";
        return Problem.of("bad-framing", "Bad request body", 400,
                "the request body ended before its Content-Length or its last chunk, or its chunks are malformed" + why);
    }
}
