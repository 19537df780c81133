package dev.metahook.internal.server;

import dev.metahook.internal.engine.HookAnswer;
import dev.metahook.internal.engine.HookEngine;
import jakarta.servlet.http.HttpServletRequest;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.LocalConnector;
import org.eclipse.jetty.server.Server;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hook calls made before the server first reports ready, so that the first call Metacontroller makes
 * does not pay for loading and initialising the hook path (on a cold JVM that first call took a
 * second, a warm one a few milliseconds). The calls go through the engine on a thread of their own
 * while the listener starts, then through the whole HTTP path in memory (a Jetty
 * {@link LocalConnector}, never the network). They are neither counted in the metrics nor logged as
 * calls. Readiness waits for them at most {@link #DEFAULT_BUDGET} after the listener is up; a call that
 * fails or runs late is a warning, and the server is ready anyway.
 */
public final class WarmUp {
    /** How long readiness may wait for the warm-up once the listener accepts connections. */
    public static final Duration DEFAULT_BUDGET = Duration.ofMillis(500);
    private static final Logger LOG = LoggerFactory.getLogger(WarmUp.class);
    private static final String MARK = WarmUp.class.getName();
    private static final int ENGINE_ROUNDS = 3;
    private static final int HTTP_ROUNDS = 2;

    /** One warm-up call: {@code POST /<controller>/<hook>} with this body, as Metacontroller would send it. */
    public record Call(String controller, String hook, byte[] body) {
    }

    private final List<Call> calls;
    private final Duration budget;

    private WarmUp(List<Call> calls, Duration budget) {
        this.calls = List.copyOf(calls);
        this.budget = budget;
    }

    /** No warm-up: ready as soon as the listener is. */
    public static WarmUp none() {
        return new WarmUp(List.of(), DEFAULT_BUDGET);
    }

    /** These calls, each made a few times, each expected to answer 200. */
    public static WarmUp of(List<Call> calls) {
        return new WarmUp(calls, DEFAULT_BUDGET);
    }

    /** The same calls with another bound on how long readiness waits for them. */
    public WarmUp within(Duration budget) {
        return new WarmUp(calls, budget);
    }

    public List<Call> calls() {
        return calls;
    }

    /** Whether this request is one of the warm-up's: those are not counted or logged. */
    static boolean isWarmUp(HttpServletRequest request) {
        return request.getAttribute(MARK) != null;
    }

    /** Starts the engine calls on a thread of their own; the listener starts meanwhile. */
    Run start(HookEngine engine) {
        return new Run(engine);
    }

    /** One server's warm-up, from its first engine call to readiness. */
    final class Run {
        private final CompletableFuture<Void> engineCalls;
        private LocalConnector connector;

        private Run(HookEngine engine) {
            engineCalls = calls.isEmpty() ? CompletableFuture.completedFuture(null)
                    : CompletableFuture.runAsync(() -> engineCalls(engine), work -> {
                        Thread thread = new Thread(work, "metahook-warm-up");
                        thread.setDaemon(true);
                        thread.start();
                    });
        }

        boolean needsConnector() {
            return !calls.isEmpty();
        }

        /** The in-memory connector the HTTP calls go through; its requests carry the warm-up mark. */
        LocalConnector connector(Server server, HttpConfiguration http) {
            HttpConfiguration marked = new HttpConfiguration(http);
            marked.addCustomizer((request, responseHeaders) -> {
                request.setAttribute(MARK, Boolean.TRUE);
                return request;
            });
            connector = new LocalConnector(server, new HttpConnectionFactory(marked));
            return connector;
        }

        /**
         * Once the listener is up: waits for the engine calls, makes the HTTP calls, and removes the
         * in-memory connector; all within the budget. True when every call answered as expected in time.
         */
        boolean finish(Server server) {
            if (calls.isEmpty()) {
                return true;
            }
            if (connector == null) {
                throw new IllegalStateException("the warm-up connector was never added");
            }
            long deadline = System.nanoTime() + budget.toNanos();
            try {
                engineCalls.get(budget.toNanos(), TimeUnit.NANOSECONDS);
                for (int round = 0; round < HTTP_ROUNDS; round++) {
                    for (Call call : calls) {
                        http(call, deadline);
                    }
                }
                return true;
            } catch (TimeoutException e) {
                // nothing to act on: a slow machine or a cold JIT, which the first calls finish warming
                LOG.info("warm-up not done within {} ms: ready anyway, the first calls will be slower", budget.toMillis());
            } catch (ExecutionException e) {
                LOG.warn("warm-up failed: {}; ready anyway", e.getCause().getMessage());
            } catch (Exception e) {
                LOG.warn("warm-up failed: {}; ready anyway", e.toString());
            } finally {
                remove(server);
            }
            return false;
        }

        private void http(Call call, long deadline) throws Exception {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new TimeoutException();
            }
            byte[] head = ("POST /" + call.controller() + "/" + call.hook() + " HTTP/1.1\r\nHost: localhost\r\n"
                    + "Content-Type: application/json\r\nContent-Length: " + call.body().length + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII);
            ByteBuffer request = ByteBuffer.allocate(head.length + call.body().length).put(head).put(call.body()).flip();
            ByteBuffer response = connector.getResponse(request, left, TimeUnit.NANOSECONDS);
            if (response == null) {
                throw new TimeoutException();
            }
            String statusLine = StandardCharsets.US_ASCII.decode(response).toString().lines().findFirst().orElse("");
            // With credentials configured the call is refused before the engine; the HTTP path is warm all the same.
            if (!statusLine.startsWith("HTTP/1.1 200") && !statusLine.startsWith("HTTP/1.1 401")) {
                throw new IllegalStateException(describe(call) + " over HTTP answered '" + statusLine + "'");
            }
        }

        private void remove(Server server) {
            if (connector == null) {
                return;
            }
            server.removeConnector(connector);
            try {
                connector.stop();
            } catch (Exception e) {
                LOG.debug("stopping the warm-up connector: {}", e.toString());
            }
        }
    }

    private void engineCalls(HookEngine engine) {
        for (int round = 0; round < ENGINE_ROUNDS; round++) {
            for (Call call : calls) {
                HookAnswer answer = engine.handle(call.controller(), call.hook(), call.body());
                if (answer.status() != 200) {
                    throw new IllegalStateException(describe(call) + " answered " + answer.status() + ": "
                            + new String(answer.body(), StandardCharsets.UTF_8));
                }
            }
        }
    }

    private static String describe(Call call) {
        return "warm-up call POST /" + call.controller() + "/" + call.hook();
    }
}
