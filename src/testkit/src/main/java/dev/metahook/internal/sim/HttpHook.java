package dev.metahook.internal.sim;

import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import javax.net.ssl.SSLContext;

/**
 * A hook at a URL, called over HTTP/1.1 as Metacontroller calls it ({@link HttpTransport}: keep-alive where the
 * hook allows it, an HTTP/1.0 hook served a connection per call), with the controller's timeout and the headers
 * Metacontroller sends. A redirect is not followed: Metacontroller would turn the POST into a GET, so it is an error
 * either way.
 *
 * <p>How long a call took is what {@code too-slow} is judged by, so it is measured to say something
 * about the hook, not about the machine {@code check} runs on: an answer that came later than the
 * hook's timeout is timed again, by sending the same request {@value #RETIMES} more times, and the
 * reply says the fastest of those. One slow call (the first of the process, which pays class loading,
 * the connection and JIT in this JVM, or one a loaded machine held up) is thereby never a breach; a
 * hook slower than its budget every time is. Once a hook has been timed slow again, later slow calls
 * of it are not timed again (it is slow, and each would cost its timeout several times over).
 */
public final class HttpHook implements HookClient {
    /** How many more times an answer later than the timeout is timed. */
    static final int RETIMES = 3;
    private final Set<String> slow = ConcurrentHashMap.newKeySet();
    private final Map<String, URI> urls;
    private final Map<String, Duration> timeouts;
    private final Credentials credentials;
    private final HttpTransport transport;

    /**
     * How the hook service wants to be called, as a CompositeController's {@code endpointConfigs} tells
     * Metacontroller (v4.16 and newer): a bearer token sent with every call, and for {@code https://} the
     * TLS context (the CA the server's certificate must chain to, a client certificate for mTLS); either may
     * be null: no token, the JDK's default trust and no client certificate.
     */
    public record Credentials(String bearerToken, SSLContext tls) {
        public static final Credentials NONE = new Credentials(null, null);

        @Override
        public String toString() {
            return "Credentials[bearerToken=" + (bearerToken == null ? "none" : "(hidden)") + ", tls=" + tls + "]";
        }
    }

    public HttpHook(Map<String, URI> urls, Map<String, Duration> timeouts) {
        this(urls, timeouts, Credentials.NONE);
    }

    public HttpHook(Map<String, URI> urls, Map<String, Duration> timeouts, Credentials credentials) {
        this.urls = Map.copyOf(urls);
        this.timeouts = Map.copyOf(timeouts);
        this.credentials = credentials;
        this.transport = new HttpTransport(credentials.tls());
    }

    /**
     * The hooks of a controller at their manifest URLs; with {@code override}, its scheme, host and
     * port replace theirs, or, when it has a path, it is the URL of every hook.
     */
    public static HttpHook of(ControllerSpec spec, URI override) {
        return of(spec, override, Credentials.NONE);
    }

    /** The same, called with these credentials. */
    public static HttpHook of(ControllerSpec spec, URI override, Credentials credentials) {
        Map<String, URI> urls = new LinkedHashMap<>();
        Map<String, Duration> timeouts = new LinkedHashMap<>();
        spec.hooks().forEach((hook, config) -> {
            urls.put(hook, resolve(config.url(), override, hook));
            timeouts.put(hook, config.timeout());
        });
        return new HttpHook(urls, timeouts, credentials);
    }

    static URI resolve(String manifestUrl, URI override, String hook) {
        if (override == null) {
            if (manifestUrl == null) {
                throw new IllegalArgumentException("hook " + hook + " has neither webhook.url nor service and path");
            }
            return URI.create(manifestUrl);
        }
        boolean hasPath = override.getPath() != null && !override.getPath().isEmpty() && !override.getPath().equals("/");
        if (hasPath || manifestUrl == null) {
            return override;
        }
        URI manifest = URI.create(manifestUrl);
        return override.resolve(manifest.getRawPath() + (manifest.getRawQuery() == null ? "" : "?" + manifest.getRawQuery()));
    }

    /** Closes the connections kept alive for the next call. */
    @Override
    public void close() {
        transport.close();
    }

    @Override
    public Reply call(String hook, byte[] body) {
        Reply reply = send(hook, body);
        Duration timeout = timeouts.getOrDefault(hook, Duration.ofSeconds(10));
        if (reply.error() != null || reply.took().compareTo(timeout) <= 0 || slow.contains(hook)) {
            return reply;
        }
        Duration fastest = null;
        for (int i = 0; i < RETIMES; i++) {
            Duration took = send(hook, body).took();
            fastest = fastest == null || took.compareTo(fastest) < 0 ? took : fastest;
            if (fastest.compareTo(timeout) <= 0) {
                break;
            }
        }
        if (fastest.compareTo(timeout) > 0) {
            slow.add(hook);
        }
        return new Reply(reply.status(), reply.headers(), reply.body(), fastest, reply.error());
    }

    private Reply send(String hook, byte[] body) {
        URI url = urls.get(hook);
        if (url == null) {
            throw new IllegalArgumentException("the controller has no " + hook + " hook");
        }
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Content-Type", "application/json");
        headers.put("Accept-Encoding", "identity");
        if (credentials.bearerToken() != null) {
            headers.put("Authorization", "Bearer " + credentials.bearerToken());
        }
        long started = System.nanoTime();
        long deadline = started + deadline(timeouts.getOrDefault(hook, Duration.ofSeconds(10))).toNanos();
        HttpTransport.Exchange exchange = transport.post(url, headers, body, deadline);
        return new Reply(exchange.status(), exchange.headers(), exchange.body(), elapsed(started), exchange.error());
    }

    /**
     * How long this client waits: past the controller's timeout (twice it, and at least 5 s more), so
     * that an answer Metacontroller would have given up on arrives, is measured and is reported as
     * too slow, while a hook that never answers still ends the call.
     */
    static Duration deadline(Duration timeout) {
        return timeout.plus(timeout.compareTo(Duration.ofSeconds(5)) > 0 ? timeout : Duration.ofSeconds(5));
    }

    private static Duration elapsed(long started) {
        return Duration.ofNanos(System.nanoTime() - started);
    }
}
