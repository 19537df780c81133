package dev.metahook.internal.sim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * How {@code check} talks to a hook server of any make: HTTP/1.0 servers that close every connection, HTTP/1.1
 * servers that close a kept connection between calls, chunked answers, and what it says when no answer came.
 */
class HttpTransportTest {
    private static final byte[] BODY = "{\"children\":[]}".getBytes(StandardCharsets.UTF_8);

    /** A raw hook server: each connection is handed to {@code serve}, on a thread of its own. */
    private static final class RawHook implements AutoCloseable {
        final ServerSocket server;
        final AtomicInteger connections = new AtomicInteger();
        final AtomicInteger requests = new AtomicInteger();
        private final List<Thread> threads = new ArrayList<>();

        interface Serve {
            void serve(Socket socket, RawHook hook) throws IOException;
        }

        RawHook(Serve serve) throws IOException {
            server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            Thread acceptor = new Thread(() -> {
                while (!server.isClosed()) {
                    try {
                        Socket socket = server.accept();
                        connections.incrementAndGet();
                        Thread thread = new Thread(() -> {
                            try (socket) {
                                serve.serve(socket, this);
                            } catch (IOException e) {
                                // the client went away: what the test looks at is what the client saw
                            }
                        });
                        thread.start();
                    } catch (IOException e) {
                        return;
                    }
                }
            });
            acceptor.start();
            threads.add(acceptor);
        }

        URI url() {
            return URI.create("http://127.0.0.1:" + server.getLocalPort() + "/hook/sync");
        }

        /** Reads one request (head and Content-Length body); false when the connection ended first. */
        boolean readRequest(InputStream in) throws IOException {
            ByteArrayOutputStream head = new ByteArrayOutputStream();
            while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
                int b = in.read();
                if (b < 0) {
                    return false;
                }
                head.write(b);
            }
            String text = head.toString(StandardCharsets.ISO_8859_1);
            int length = 0;
            for (String line : text.split("\r\n")) {
                if (line.toLowerCase().startsWith("content-length:")) {
                    length = Integer.parseInt(line.substring(15).trim());
                }
            }
            in.readNBytes(length);
            requests.incrementAndGet();
            return true;
        }

        @Override
        public void close() throws IOException {
            server.close();
        }
    }

    private static HttpTransport.Exchange post(HttpTransport transport, URI url) {
        return transport.post(url, Map.of("Content-Type", "application/json"), "{}".getBytes(StandardCharsets.UTF_8),
                System.nanoTime() + Duration.ofSeconds(30).toNanos());
    }

    private static byte[] answer(String head, byte[] body) {
        byte[] bytes = head.getBytes(StandardCharsets.ISO_8859_1);
        byte[] all = new byte[bytes.length + body.length];
        System.arraycopy(bytes, 0, all, 0, bytes.length);
        System.arraycopy(body, 0, all, bytes.length, body.length);
        return all;
    }

    @Test
    void anHttp10HookIsAnsweredOnAFreshConnectionEveryCall() throws Exception {
        try (RawHook hook = new RawHook((socket, self) -> {
            if (self.readRequest(socket.getInputStream())) {
                socket.getOutputStream().write(answer("HTTP/1.0 200 OK\r\nContent-Type: application/json\r\n\r\n", BODY));
            }
        })) {
            HttpTransport transport = new HttpTransport(null);
            for (int i = 0; i < 3; i++) {
                HttpTransport.Exchange exchange = post(transport, hook.url());
                assertNull(exchange.error());
                assertEquals(200, exchange.status());
                assertArrayEquals(BODY, exchange.body(), "the body read to the connection's end");
            }
            assertEquals(3, hook.connections.get(), "no connection of an HTTP/1.0 answer is used again");
        }
    }

    @Test
    void aKeptConnectionTheHookClosedIsRetriedOnceOnAFreshOne() throws Exception {
        try (RawHook hook = new RawHook((socket, self) -> {
            // answers as if it kept the connection, then closes it: the stale pooled connection of a keep-alive timeout
            if (self.readRequest(socket.getInputStream())) {
                socket.getOutputStream().write(answer("HTTP/1.1 200 OK\r\nContent-Length: " + BODY.length + "\r\n\r\n", BODY));
            }
        })) {
            HttpTransport transport = new HttpTransport(null);
            for (int i = 0; i < 3; i++) {
                HttpTransport.Exchange exchange = post(transport, hook.url());
                assertNull(exchange.error(), "call " + i);
                assertArrayEquals(BODY, exchange.body());
            }
            assertEquals(3, hook.requests.get(), "every call answered once");
        }
    }

    @Test
    void aConnectionKeptAliveIsUsedAgainAndAChunkedAnswerIsRead() throws Exception {
        try (RawHook hook = new RawHook((socket, self) -> {
            while (self.readRequest(socket.getInputStream())) {
                socket.getOutputStream().write(answer("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                        + "5\r\n{\"chi\r\n" + Integer.toHexString(BODY.length - 5) + ";ext=1\r\n", BODY.length > 5
                        ? java.util.Arrays.copyOfRange(BODY, 5, BODY.length) : new byte[0]));
                socket.getOutputStream().write("\r\n0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            }
        })) {
            HttpTransport transport = new HttpTransport(null);
            for (int i = 0; i < 3; i++) {
                HttpTransport.Exchange exchange = post(transport, hook.url());
                assertNull(exchange.error());
                assertArrayEquals(BODY, exchange.body());
            }
            assertEquals(1, hook.connections.get(), "one connection for every call, as Go's client keeps it");
        }
    }

    @Test
    void closingEndsTheConnectionsKeptAliveSoTheHookSeesThemEnd() throws Exception {
        CountDownLatch ended = new CountDownLatch(1);
        try (RawHook hook = new RawHook((socket, self) -> {
            while (self.readRequest(socket.getInputStream())) {
                socket.getOutputStream().write(answer("HTTP/1.1 200 OK\r\nContent-Length: " + BODY.length + "\r\n\r\n", BODY));
            }
            ended.countDown();
        })) {
            HttpTransport transport = new HttpTransport(null);
            assertNull(post(transport, hook.url()).error());
            assertFalse(ended.await(300, TimeUnit.MILLISECONDS), "the connection is kept alive for the next call");
            transport.close();
            assertTrue(ended.await(10, TimeUnit.SECONDS), "the hook saw its connection end once the client was closed");
            assertEquals(1, hook.connections.get());
        }
    }

    @Test
    void aHookThatClosesWithoutAnsweringIsTriedTwiceAndSaysSo() throws Exception {
        try (RawHook hook = new RawHook((socket, self) -> self.readRequest(socket.getInputStream()))) {
            HttpTransport.Exchange exchange = post(new HttpTransport(null), hook.url());
            assertEquals(0, exchange.status());
            assertEquals("http error: Post \"" + hook.url() + "\": connection closed by 127.0.0.1:" + hook.server.getLocalPort()
                    + " before any byte of the answer, on a fresh connection too", exchange.error());
            assertEquals(2, hook.connections.get());
        }
    }

    @Test
    void anAnswerCutOffIsNotSentAgain() throws Exception {
        try (RawHook hook = new RawHook((socket, self) -> {
            if (self.readRequest(socket.getInputStream())) {
                socket.getOutputStream().write("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{\"chi".getBytes(StandardCharsets.ISO_8859_1));
            }
        })) {
            HttpTransport.Exchange exchange = post(new HttpTransport(null), hook.url());
            assertEquals("http error: Post \"" + hook.url() + "\": the connection closed in the middle of the answer", exchange.error());
            assertEquals(1, hook.requests.get(), "a request the hook answered in part is not sent again");
        }
    }

    @Test
    void aRefusedConnectionSaysRefused() throws Exception {
        int port;
        try (ServerSocket closed = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = closed.getLocalPort();
        }
        URI url = URI.create("http://127.0.0.1:" + port + "/hook/sync");
        assertEquals("http error: Post \"" + url + "\": connection refused to 127.0.0.1:" + port, post(new HttpTransport(null), url).error());
    }

    /** A listener whose accept queue is full drops the connection's SYN: the TCP connect is what timed out, and it says so. */
    @Test
    void aConnectionTheListenerNeverTakesSaysTheTcpConnectTimedOut() throws Exception {
        List<Socket> queued = new ArrayList<>();
        try (ServerSocket full = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            URI url = URI.create("http://127.0.0.1:" + full.getLocalPort() + "/hook/sync");
            for (boolean filled = false; !filled; ) {
                Socket socket = new Socket();
                queued.add(socket);
                try {
                    socket.connect(new InetSocketAddress("127.0.0.1", full.getLocalPort()), 500);
                } catch (SocketTimeoutException e) {
                    filled = true;
                }
            }
            assertEquals("http error: Post \"" + url + "\": TCP connection to 127.0.0.1:" + full.getLocalPort() + " not made within 5 s",
                    post(new HttpTransport(null), url).error());
        } finally {
            for (Socket socket : queued) {
                socket.close();
            }
        }
    }

    /** Connected, and then no TLS handshake: the handshake is what timed out, and it says so. */
    @Test
    void aHookThatConnectsButNeverHandshakesSaysTheHandshakeTimedOut() throws Exception {
        try (RawHook hook = new RawHook((socket, self) -> socket.getInputStream().readAllBytes())) {
            URI url = URI.create("https://127.0.0.1:" + hook.server.getLocalPort() + "/hook/sync");
            assertEquals("http error: Post \"" + url + "\": TCP connection to 127.0.0.1:" + hook.server.getLocalPort()
                    + " made, but the TLS handshake not done within 10 s", post(new HttpTransport(null), url).error());
        }
    }

    @Test
    void aPlainHttpHookCalledWithHttpsSaysItDoesNotSpeakTls() throws Exception {
        try (RawHook hook = new RawHook((socket, self) -> {
            socket.getInputStream().read();
            socket.getOutputStream().write("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
        })) {
            URI url = URI.create("https://127.0.0.1:" + hook.server.getLocalPort() + "/hook/sync");
            assertEquals("http error: Post \"" + url + "\": TLS handshake with 127.0.0.1:" + hook.server.getLocalPort()
                    + " failed: the hook does not speak TLS on this port (is it http://?)", post(new HttpTransport(null), url).error());
        }
    }
}
