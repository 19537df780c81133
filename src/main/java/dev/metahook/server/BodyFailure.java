package dev.metahook.server;

import dev.metahook.engine.Problem;
import java.io.EOFException;
import java.util.Optional;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.http.HttpException;

/**
 * A request body that could not be read through the client's doing, with the answer it deserves:
 * {@code 408} when the body stopped coming, {@code 400} when its framing is broken (shorter than its
 * Content-Length, a chunk size that is not a size). Never a {@code 500}: the service did nothing wrong.
 */
final class BodyFailure extends RuntimeException {
    private final transient Problem problem;

    private BodyFailure(Problem problem, Throwable cause) {
        super(problem.detail(), cause, false, false);
        this.problem = problem;
    }

    Problem problem() {
        return problem;
    }

    /** The failure as the client's mistake, or empty when it is not one (the caller rethrows it as it was). */
    static Optional<BodyFailure> of(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof TimeoutException) {
                return Optional.of(new BodyFailure(Problem.of("body-timeout", "Request timeout", 408,
                        "the request body stopped arriving before it was complete; send the whole body at once"), failure));
            }
            if (cause instanceof HttpException http && http.getCode() >= 400 && http.getCode() < 500) {
                return Optional.of(badFraming(http.getReason(), failure));
            }
            if (cause instanceof EOFException || cause instanceof org.eclipse.jetty.io.EofException) {
                return Optional.of(badFraming(cause.getMessage(), failure));
            }
        }
        return Optional.empty();
    }

    private static BodyFailure badFraming(String reason, Throwable failure) {
        String why = reason == null || reason.isBlank() ? "" : " (" + reason + ")";
        return new BodyFailure(Problem.of("bad-framing", "Bad request body", 400,
                "the request body ended before its Content-Length or its last chunk, or its chunks are malformed" + why), failure);
    }
}
