package dev.metahook.internal.sim;

import java.time.Duration;
import java.util.Map;

/**
 * Calls one of a controller's hooks with a request body, the way Metacontroller does. Whoever makes one closes it when
 * done: a client over HTTP then closes the connections it keeps alive, so the hook's server sees them end.
 */
public interface HookClient extends AutoCloseable {

    /** @param hook {@code sync}, {@code finalize} or {@code customize} */
    Reply call(String hook, byte[] body);

    /** Lets go of what the client holds (kept-alive connections); nothing, unless a client holds something. */
    @Override
    default void close() {
    }

    /**
     * What came back: the status code (0 when no answer came: refused, reset, timed out), headers,
     * body, how long it took, and the transport error if there was one.
     */
    record Reply(int status, Map<String, String> headers, byte[] body, Duration took, String error) {

        public String header(String name) {
            return headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name)).map(Map.Entry::getValue)
                    .findFirst().orElse(null);
        }
    }
}
