package dev.metahook.internal.sim;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import javax.net.ssl.SSLContext;

/**
 * A hook at a URL, called over HTTP/1.1 with keep-alive and the controller's timeout, with the
 * headers Metacontroller sends. A redirect is not followed: Metacontroller would turn the POST into
 * a GET, so it is an error either way.
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
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
    /** How many more times an answer later than the timeout is timed. */
    static final int RETIMES = 3;
    private final Set<String> slow = ConcurrentHashMap.newKeySet();
    private final Map<String, URI> urls;
    private final Map<String, Duration> timeouts;
    private final Credentials credentials;
    private final HttpClient client;

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
        HttpClient.Builder builder = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NEVER).connectTimeout(CONNECT_TIMEOUT);
        if (credentials.tls() != null) {
            builder.sslContext(credentials.tls());
        }
        this.client = builder.build();
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
        HttpRequest.Builder builder = HttpRequest.newBuilder(url).timeout(deadline(timeouts.getOrDefault(hook, Duration.ofSeconds(10))))
                .header("Content-Type", "application/json").header("Accept-Encoding", "identity")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (credentials.bearerToken() != null) {
            builder.header("Authorization", "Bearer " + credentials.bearerToken());
        }
        HttpRequest request = builder.build();
        long started = System.nanoTime();
        try {
            HttpResponse<byte[]> response = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
            Map<String, String> headers = new LinkedHashMap<>();
            response.headers().map().forEach((name, values) -> headers.put(name, String.join(",", values)));
            return new Reply(response.statusCode(), headers, response.body(), elapsed(started), null);
        } catch (HttpConnectTimeoutException e) {
            return new Reply(0, Map.of(), new byte[0], elapsed(started), "http error: Post \"" + url + "\": no connection to "
                    + where(url) + " within " + CONNECT_TIMEOUT.toSeconds() + " s");
        } catch (HttpTimeoutException e) {
            return new Reply(0, Map.of(), new byte[0], elapsed(started), "timed out after " + request.timeout().orElseThrow().toSeconds() + " s");
        } catch (IOException e) {
            return new Reply(0, Map.of(), new byte[0], elapsed(started), "http error: Post \"" + url + "\": " + failure(e, url));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Reply(0, Map.of(), new byte[0], elapsed(started), "interrupted");
        }
    }

    /**
     * What went wrong, in words: the JDK's client often throws without a message (a refused connection
     * is a {@code ConnectException} with none), so say what failed and where.
     */
    static String failure(IOException e, URI url) {
        String where = where(url);
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof UnresolvedAddressException || cause instanceof UnknownHostException) {
                return "no such host " + url.getHost();
            }
        }
        if (e instanceof ConnectException) {
            return "connection refused to " + where;
        }
        if (e.getMessage() != null) {
            return e.getMessage();
        }
        return e.getClass().getSimpleName() + " talking to " + where + (e.getCause() == null ? "" : ": " + e.getCause());
    }

    /** The host and port a URL connects to. */
    private static String where(URI url) {
        return url.getHost() + ":" + (url.getPort() >= 0 ? url.getPort() : "https".equals(url.getScheme()) ? 443 : 80);
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
