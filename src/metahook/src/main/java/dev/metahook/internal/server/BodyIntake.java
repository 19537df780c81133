package dev.metahook.internal.server;

import dev.metahook.internal.engine.HookAnswer;
import dev.metahook.internal.engine.Problem;
import dev.metahook.internal.wire.CallBudget;
import jakarta.servlet.http.HttpServletRequest;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.http.HttpException;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.HttpConfiguration;

/**
 * Takes a hook call's body into memory, within the memory budget and within read time limits:
 * <ul>
 * <li>admission comes first: the call reserves its declared length (or, for a chunked body, more as
 * the bytes arrive) before any of the body is read, waits up to {@link #ADMISSION_WAIT} for the
 * budget, and is otherwise refused with {@code 503} and {@code Retry-After}; a body larger than any
 * the budget can read is refused with {@code 413} unread;</li>
 * <li>once read, the call's reservation is its {@link CallBudget}: the engine scans the body (checking
 * all of it, building nothing) and admits its work before any tree is built, and each observed object
 * claims its own cost when first built ({@link MemoryBudget}); every refusal, here or there, is answered
 * by {@link HookAnswer#refused}: {@code 503} with {@code Retry-After} when the budget stays spent,
 * {@code 413} when no budget of this heap could hold the call;</li>
 * <li>a body must keep arriving: at least {@link #MIN_BODY_RATE} bytes a second, no pause longer
 * than {@link #READ_IDLE_TIMEOUT}, all of it within {@link #BODY_DEADLINE}; otherwise {@code 408}.
 * Metacontroller sends a whole body at once and gives up on a hook after 10 s, so none of these
 * limits touches it, while a client trickling a byte a second holds a thread for about a second.</li>
 * </ul>
 * The reservation is given back once the answer is written, not when the handler returns.
 */
final class BodyIntake {
    static final Duration ADMISSION_WAIT = Duration.ofSeconds(2);
    static final long MIN_BODY_RATE = 1024;
    static final Duration READ_IDLE_TIMEOUT = Duration.ofSeconds(5);
    static final Duration BODY_DEADLINE = Duration.ofSeconds(10);
    /** How much more a chunked body reserves each time it outgrows its reservation. */
    private static final long CHUNKED_STEP = 1024 * 1024;

    private final MemoryBudget budget;
    private final long maxBodySize;

    BodyIntake(MemoryBudget budget, long maxBodySize) {
        this.budget = budget;
        this.maxBodySize = maxBodySize;
    }

    /**
     * The read limits, on the listener's HTTP configuration: the minimum body rate bounds each request's body, not the
     * keep-alive wait between requests. Jetty 12.1 marks it for removal in favour of its {@code MinimumDataRateHandler}, but
     * that handler (12.1.12) divides the bytes all requests have read by the time this one has waited, so on a busy server it
     * would never refuse a slow body (HttpFramingTest trickles one below the minimum). No stream idle timeout: Jetty starts
     * it when a request's headers are parsed, so a request waiting for a thread would be failed unanswered; the body's pause
     * limit starts when {@link #take} does ({@link PauseLimits}).
     */
    @SuppressWarnings("removal")
    static void limitReads(HttpConfiguration http) {
        http.setIdleTimeout(-1);
        http.setMinRequestDataRate(MIN_BODY_RATE);
    }

    /** What came of taking a call's body. */
    sealed interface Intake permits Read, Refused, TooLarge {
    }

    /** The body, read whole, and the call's budget from here on. */
    record Read(byte[] body, CallBudget budget) implements Intake {
    }

    /** The call is answered with {@code answer} and the connection's headers it needs, its body not kept. */
    record Refused(HookAnswer answer, Map<String, String> headers) implements Intake {
    }

    /** The body is larger than {@code MAX_BODY_SIZE}. */
    record TooLarge() implements Intake {
    }

    Intake take(HttpServletRequest request) throws IOException {
        PauseLimits.set(request, READ_IDLE_TIMEOUT);
        long declared = request.getContentLengthLong();
        if (declared > maxBodySize) {
            return new TooLarge();
        }
        long deadline = System.nanoTime() + BODY_DEADLINE.toNanos();
        if (declared > budget.largestBody()) {
            return unreadable(request, declared);
        }
        MemoryBudget.Reservation reservation = reserve(declared);
        if (reservation == null) {
            return overloaded(request, declared);
        }
        Drain.whenWritten(request, reservation::close);
        byte[] body;
        try {
            InputStream in = new Limited(request.getInputStream(), reservation, declared < 0, deadline);
            body = BodyReader.read(in, declared, maxBodySize);
        } catch (BudgetSpent e) {
            return e.everFits ? overloaded(request, -1) : unreadable(request, -1);
        } catch (BodyTimeout e) {
            return timedOut();
        } catch (HttpException.RuntimeException e) {
            if (e.getCode() == 408) {
                return timedOut();
            }
            throw e;
        } catch (IOException e) {
            if (e.getCause() instanceof TimeoutException) {
                return timedOut();
            }
            throw e;
        }
        return body == null ? new TooLarge() : new Read(body, reservation);
    }

    /**
     * A body larger than the budget can ever read: refused with {@code 413}, its bytes read and thrown
     * away first as for a {@code 503}, so the client sees the answer.
     */
    private Intake unreadable(HttpServletRequest request, long declared) {
        boolean discarded = discard(request);
        HookAnswer answer = HookAnswer.refused(CallBudget.Refused.never(declared,
                (declared >= 0 ? "a body of " + declared + " bytes" : "this chunked body") + " is more than this service's memory can read at once ("
                        + (declared >= 0 ? budget.largestBody() : budget.largestChunkedBody())
                        + " bytes at most; see docs/production.md, memory model)"));
        return new Refused(answer, discarded ? Map.of() : Map.of("Connection", "close"));
    }

    private MemoryBudget.Reservation reserve(long bodyBytes) throws IOException {
        try {
            return budget.reserve(bodyBytes, ADMISSION_WAIT);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for memory", e);
        }
    }

    /**
     * The refusal when the budget stays spent. The rest of the body is read and thrown away first
     * (a few KiB at a time, within the read limits): a client still sending would otherwise meet a
     * reset and never see the {@code 503}.
     */
    private Intake overloaded(HttpServletRequest request, long declared) {
        boolean discarded = discard(request);
        return new Refused(HookAnswer.refused(CallBudget.Refused.later(declared)), discarded ? Map.of() : Map.of("Connection", "close"));
    }

    /**
     * Reads the rest of a refused body and throws it away, up to {@code MAX_BODY_SIZE} bytes, for as long as its client
     * keeps it coming: it stops once the reads have waited {@link #BODY_DEADLINE} in all for bytes the client had not sent
     * yet. A read of bytes that had already arrived does not count: on a busy machine the service can take longer than
     * that to read and drop a 15 MiB body that its client sent at once, and closing the connection under a client still
     * sending loses the answer. False when it had to stop, and the answer then closes the connection.
     */
    private boolean discard(HttpServletRequest request) {
        EndPoint endPoint = PauseLimits.endPoint(request);
        byte[] sink = new byte[16 * 1024];
        long total = 0;
        long waited = 0;
        try {
            InputStream in = request.getInputStream();
            while (true) {
                boolean arrived = in.available() > 0 || endPoint != null && !Drain.nothingUnread(endPoint);
                long started = System.nanoTime();
                int n = in.read(sink);
                waited += arrived ? 0 : System.nanoTime() - started;
                if (n == -1) {
                    return true;
                }
                total += n;
                if (waited > BODY_DEADLINE.toNanos() || total > maxBodySize) {
                    return false;
                }
            }
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    private static Intake timedOut() {
        return new Refused(HookAnswer.problem(Problem.of("body-timeout", "Request timeout", 408,
                "the request body did not arrive in time (at least " + MIN_BODY_RATE + " bytes a second, no pause over "
                        + READ_IDLE_TIMEOUT.toSeconds() + " s, all of it within " + BODY_DEADLINE.toSeconds() + " s)")),
                Map.of("Connection", "close"));
    }

    /** The budget could not cover more of a chunked body: for now, or ever. */
    private static final class BudgetSpent extends IOException {
        private final boolean everFits;

        BudgetSpent(boolean everFits) {
            super("memory budget spent");
            this.everFits = everFits;
        }
    }

    /** The body was not all there by its deadline. */
    private static final class BodyTimeout extends IOException {
        BodyTimeout() {
            super("body deadline passed");
        }
    }

    /** The body stream, checked against the deadline and, for a chunked body, against the reservation. */
    private final class Limited extends FilterInputStream {
        private final MemoryBudget.Reservation reservation;
        private final boolean chunked;
        private final long deadline;
        private long read;
        private long covered;

        Limited(InputStream in, MemoryBudget.Reservation reservation, boolean chunked, long deadline) {
            super(in);
            this.reservation = reservation;
            this.chunked = chunked;
            this.deadline = deadline;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) == -1 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            if (System.nanoTime() - deadline > 0) {
                throw new BodyTimeout();
            }
            int n = super.read(buffer, offset, length);
            if (n > 0 && chunked) {
                read += n;
                if (read > covered) {
                    covered = read + CHUNKED_STEP;
                    grow();
                }
            }
            return n;
        }

        private void grow() throws IOException {
            if (covered > budget.largestChunkedBody()) {
                throw new BudgetSpent(false);
            }
            try {
                if (!reservation.growReading(covered, ADMISSION_WAIT)) {
                    throw new BudgetSpent(true);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while waiting for memory", e);
            }
        }
    }
}
