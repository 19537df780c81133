package dev.metahook.internal.sim;

import dev.metahook.internal.credentials.PeerTrust;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

/**
 * HTTP/1.1 to a hook the way Go's {@code net/http} client, which Metacontroller calls hooks with, speaks it: a
 * connection is kept for the next call only when the answer allows it (HTTP/1.1 without {@code Connection: close},
 * or HTTP/1.0 with {@code Connection: keep-alive}, a body whose end is known); an HTTP/1.0 or {@code Connection:
 * close} hook gets a fresh connection for every call. A call that meets a closed or reset connection before the first
 * byte of its answer is sent once more on a fresh connection (Go retries a POST on a reused connection only when
 * nothing of it was written, and never reuses a connection the server said it would close: a server that closes
 * connections never makes Metacontroller's calls fail). Connecting, the TLS handshake and the answer each have their
 * own limit, and a failure says which of them failed and how.
 */
final class HttpTransport {
    /** How long a TCP connection may take: on a loopback or cluster network, far longer than any does. */
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
    /** How long a TLS handshake may take once connected: Go's {@code DefaultTransport.TLSHandshakeTimeout}. */
    static final Duration HANDSHAKE_TIMEOUT = Duration.ofSeconds(10);
    private static final int MAX_HEAD = 64 * 1024;

    private final SSLContext tls;
    private final Map<String, Deque<Socket>> idle = new LinkedHashMap<>();

    /** @param tls the TLS context of {@code https://} hooks, or null for the Java runtime's trusted CAs */
    HttpTransport(SSLContext tls) {
        this.tls = tls;
    }

    /** What came back, or why nothing did. */
    record Exchange(int status, Map<String, String> headers, byte[] body, String error) {
    }

    /** POSTs {@code body} with {@code headers}; gives up at {@code deadline} ({@link System#nanoTime()}). */
    synchronized Exchange post(URI url, Map<String, String> headers, byte[] body, long deadline) {
        byte[] request = request(url, headers, body);
        long started = System.nanoTime();
        String origin = url.getScheme() + "://" + where(url);
        Socket reused = take(origin);
        try {
            return exchange(url, origin, reused != null ? reused : open(url, deadline), request, started, deadline);
        } catch (NoAnswer first) {
            if (!first.retry) {
                return failed(url, first.getMessage());
            }
            try {
                return exchange(url, origin, open(url, deadline), request, started, deadline);
            } catch (NoAnswer again) {
                return failed(url, again.getMessage() + (again.retry ? ", on a fresh connection too" : ""));
            }
        }
    }

    /** Closes every connection kept alive for the next call. */
    synchronized void close() {
        idle.values().forEach(sockets -> sockets.forEach(HttpTransport::close));
        idle.clear();
    }

    private static Exchange failed(URI url, String why) {
        return new Exchange(0, Map.of(), new byte[0], "http error: Post \"" + url + "\": " + why);
    }

    /** Why a call got no answer; {@code retry} when the connection was closed or reset before the answer began. */
    private static final class NoAnswer extends Exception {
        final boolean retry;

        NoAnswer(String message, boolean retry) {
            super(message, null, false, false);
            this.retry = retry;
        }
    }

    private Exchange exchange(URI url, String origin, Socket socket, byte[] request, long started, long deadline) throws NoAnswer {
        boolean keep = false;
        try {
            OutputStream out = socket.getOutputStream();
            out.write(request);
            out.flush();
            Answer answer = Answer.read(new Reader(socket, started, deadline));
            keep = answer.keepAlive;
            return new Exchange(answer.status, answer.headers, answer.body, null);
        } catch (SocketTimeoutException e) {
            throw new NoAnswer(e.getMessage(), false);
        } catch (SSLException e) {
            throw new NoAnswer("TLS failure talking to " + where(url) + ": " + PeerTrust.explain(e), false);
        } catch (Answer.Cut e) {
            throw new NoAnswer(e.getMessage(), false);
        } catch (IOException e) {
            throw new NoAnswer(closedOrReset(e) + " by " + where(url) + " before any byte of the answer", true);
        } finally {
            if (keep) {
                idle.computeIfAbsent(origin, key -> new ArrayDeque<>()).push(socket);
            } else {
                close(socket);
            }
        }
    }

    private static String closedOrReset(IOException e) {
        String message = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
        return e instanceof SocketException && message.contains("reset") ? "connection reset" : "connection closed";
    }

    private Socket take(String origin) {
        Deque<Socket> sockets = idle.get(origin);
        return sockets == null || sockets.isEmpty() ? null : sockets.pop();
    }

    /** A fresh connection: TCP within {@link #CONNECT_TIMEOUT}, then for https the handshake within {@link #HANDSHAKE_TIMEOUT}. */
    private Socket open(URI url, long deadline) throws NoAnswer {
        String host = url.getHost();
        int port = port(url);
        Socket socket = new Socket();
        long limit = Math.max(1, Math.min(CONNECT_TIMEOUT.toMillis(), remaining(deadline)));
        try {
            socket.setTcpNoDelay(true);
            socket.connect(new InetSocketAddress(host, port), (int) limit);
        } catch (UnknownHostException e) {
            close(socket);
            throw new NoAnswer("no such host " + host, false);
        } catch (SocketTimeoutException e) {
            close(socket);
            throw new NoAnswer("TCP connection to " + where(url) + " not made " + within(CONNECT_TIMEOUT, limit), false);
        } catch (ConnectException e) {
            close(socket);
            throw new NoAnswer("connection refused to " + where(url), false);
        } catch (IOException e) {
            close(socket);
            throw new NoAnswer((e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()) + " connecting to " + where(url), false);
        }
        if (!"https".equals(url.getScheme())) {
            return socket;
        }
        return handshake(socket, url, deadline);
    }

    private SSLSocket handshake(Socket socket, URI url, long deadline) throws NoAnswer {
        long limit = Math.max(1, Math.min(HANDSHAKE_TIMEOUT.toMillis(), remaining(deadline)));
        try {
            SSLContext context = tls != null ? tls : runtimeTrust();
            SSLSocket secure = (SSLSocket) context.getSocketFactory().createSocket(socket, url.getHost(), port(url), true);
            SSLParameters parameters = secure.getSSLParameters();
            parameters.setEndpointIdentificationAlgorithm("HTTPS");
            parameters.setApplicationProtocols(new String[] {"http/1.1"});
            secure.setSSLParameters(parameters);
            secure.setSoTimeout((int) limit);
            secure.startHandshake();
            return secure;
        } catch (SocketTimeoutException e) {
            close(socket);
            throw new NoAnswer("TCP connection to " + where(url) + " made, but the TLS handshake not done " + within(HANDSHAKE_TIMEOUT, limit), false);
        } catch (SSLException e) {
            close(socket);
            throw new NoAnswer("TLS handshake with " + where(url) + " failed: " + PeerTrust.explain(e), false);
        } catch (IOException e) {
            close(socket);
            throw new NoAnswer("TLS handshake with " + where(url) + " failed: " + closedOrReset(e), false);
        }
    }

    /** A context trusting the Java runtime's CAs, whose refusals say why in words. */
    private static SSLContext runtimeTrust() throws SSLException {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, new PeerTrust[] {new PeerTrust("the Java runtime's trusted CAs", null)}, null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new SSLException("the Java runtime's trusted CAs cannot be read: " + e.getMessage(), e);
        }
    }

    /** The limit a step failed to meet: its own, or what was left of the call's timeout when that was shorter. */
    private static String within(Duration timeout, long limitMillis) {
        return limitMillis < timeout.toMillis() ? "within the call's timeout" : "within " + timeout.toSeconds() + " s";
    }

    private static byte[] request(URI url, Map<String, String> headers, byte[] body) {
        StringBuilder head = new StringBuilder("POST ").append(url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath())
                .append(url.getRawQuery() == null ? "" : "?" + url.getRawQuery()).append(" HTTP/1.1\r\n")
                .append("Host: ").append(url.getHost()).append(url.getPort() >= 0 ? ":" + url.getPort() : "").append("\r\n")
                .append("User-Agent: metahook-check\r\n");
        headers.forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
        head.append("Content-Length: ").append(body.length).append("\r\n\r\n");
        byte[] bytes = head.toString().getBytes(StandardCharsets.ISO_8859_1);
        byte[] request = new byte[bytes.length + body.length];
        System.arraycopy(bytes, 0, request, 0, bytes.length);
        System.arraycopy(body, 0, request, bytes.length, body.length);
        return request;
    }

    static String where(URI url) {
        return url.getHost() + ":" + port(url);
    }

    private static int port(URI url) {
        return url.getPort() >= 0 ? url.getPort() : "https".equals(url.getScheme()) ? 443 : 80;
    }

    static long remaining(long deadline) {
        return Math.max(0, (deadline - System.nanoTime()) / 1_000_000);
    }

    private static void close(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // closing a connection given up on: nothing more to learn from it
        }
    }

    /** One answer read from a connection: status line, headers, a body by Content-Length, chunks or the connection's end. */
    private static final class Answer {
        final int status;
        final Map<String, String> headers = new LinkedHashMap<>();
        byte[] body;
        boolean keepAlive;

        /** The answer began and then broke off: not a closed idle connection, so not sent again. */
        static final class Cut extends IOException {
            Cut(String message) {
                super(message, null);
            }
        }

        private Answer(int status) {
            this.status = status;
        }

        static Answer read(Reader in) throws IOException {
            Answer answer;
            String http;
            do {
                String line = in.line();
                String[] parts = line.split(" ", 3);
                if (parts.length < 2 || !parts[0].startsWith("HTTP/1.") || !parts[1].matches("\\d{3}")) {
                    throw new Cut("not an HTTP/1.x answer: " + Excerpt.text(line));
                }
                http = parts[0];
                answer = new Answer(Integer.parseInt(parts[1]));
                for (String header = in.line(); !header.isEmpty(); header = in.line()) {
                    int colon = header.indexOf(':');
                    if (colon > 0) {
                        answer.headers.merge(header.substring(0, colon).trim(), header.substring(colon + 1).trim(), (a, b) -> a + "," + b);
                    }
                }
            } while (answer.status / 100 == 1);
            String connection = answer.header("Connection").toLowerCase(Locale.ROOT);
            boolean persistent = http.equals("HTTP/1.0") ? connection.contains("keep-alive") : !connection.contains("close");
            String length = answer.header("Content-Length");
            if (answer.status == 204 || answer.status == 304) {
                answer.body = new byte[0];
                answer.keepAlive = persistent;
            } else if (answer.header("Transfer-Encoding").toLowerCase(Locale.ROOT).contains("chunked")) {
                answer.body = in.chunked();
                answer.keepAlive = persistent;
            } else if (!length.isEmpty()) {
                answer.body = in.exactly(Long.parseLong(length));
                answer.keepAlive = persistent;
            } else {
                answer.body = in.toEnd();
            }
            return answer;
        }

        String header(String name) {
            return headers.entrySet().stream().filter(entry -> entry.getKey().equalsIgnoreCase(name)).map(Map.Entry::getValue)
                    .findFirst().orElse("");
        }
    }

    /** Reads a connection up to a deadline; a timeout's message says how long was waited. */
    private static final class Reader {
        private final Socket socket;
        private final InputStream in;
        private final long deadline;
        private final long started;
        private boolean any;

        Reader(Socket socket, long started, long deadline) throws IOException {
            this.socket = socket;
            this.in = new BufferedInputStream(socket.getInputStream());
            this.started = started;
            this.deadline = deadline;
        }

        private int read() throws IOException {
            int b = next();
            if (b < 0) {
                if (any) {
                    throw new Answer.Cut("the connection closed in the middle of the answer");
                }
                throw new EOFException("closed");
            }
            any = true;
            return b;
        }

        /** The next byte, or -1 at the end of the stream, waiting no later than the deadline. */
        private int next() throws IOException {
            long left = remaining(deadline);
            if (left <= 0) {
                throw timeout();
            }
            socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, left));
            try {
                return in.read();
            } catch (SocketTimeoutException e) {
                throw timeout();
            } catch (SocketException e) {
                if (any) {
                    throw new Answer.Cut(e.getMessage() + " after the answer began");
                }
                throw e;
            }
        }

        private SocketTimeoutException timeout() {
            long waited = Math.max(1, Math.round((System.nanoTime() - started) / 1e9));
            return new SocketTimeoutException("timed out after " + waited + " s "
                    + (any ? "in the middle of the answer" : "with no answer"));
        }

        String line() throws IOException {
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            for (int b = read(); b != '\n'; b = read()) {
                if (line.size() > MAX_HEAD) {
                    throw new Answer.Cut("a header line longer than " + MAX_HEAD + " bytes");
                }
                line.write(b);
            }
            String text = line.toString(StandardCharsets.ISO_8859_1);
            return text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
        }

        byte[] exactly(long length) throws IOException {
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            for (long i = 0; i < length; i++) {
                body.write(read());
            }
            return body.toByteArray();
        }

        byte[] chunked() throws IOException {
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            for (long size = chunkSize(); size > 0; size = chunkSize()) {
                body.writeBytes(exactly(size));
                line();
            }
            for (String trailer = line(); !trailer.isEmpty(); trailer = line()) {
                // trailers carry nothing Metacontroller reads
            }
            return body.toByteArray();
        }

        private long chunkSize() throws IOException {
            String line = line();
            int extension = line.indexOf(';');
            try {
                return Long.parseLong((extension < 0 ? line : line.substring(0, extension)).trim(), 16);
            } catch (NumberFormatException e) {
                throw new Answer.Cut("a chunk size that is no number: " + Excerpt.text(line));
            }
        }

        byte[] toEnd() throws IOException {
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            for (int b = next(); b >= 0; b = next()) {
                body.write(b);
            }
            return body.toByteArray();
        }
    }
}
