package dev.metahook.internal.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.metahook.internal.engine.HookEngine;
import dev.metahook.testing.TestServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The header deadline closes connections that never finish their head: on the hook port over TLS, those that never
 * finish the handshake; on the management port, those that send their headers a byte a second. Each test opens such
 * connections against the real server and, once the deadline and a margin have passed, finds them closed, while a
 * connection that finished its head and waits, kept alive, is still open.
 */
class HeaderDeadlineTest {
    /** The sweep looks once a second; a busy machine may be a few seconds late. */
    private static final Duration MARGIN = Duration.ofSeconds(8);
    private static final byte[] PARTIAL_CLIENT_HELLO = {0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01};

    @TempDir
    Path dir;

    @Test
    void tlsConnectionsThatNeverFinishTheirHandshakeAreClosedByTheHeaderDeadline() throws Exception {
        Certificates certificates = new Certificates(dir);
        ServerConfig config = config().withTls(new ServerConfig.Tls(certificates.serverCert, certificates.serverKey, null));
        try (HookServer server = HookServer.start(new HookEngine(TestServer.widgets(), TestServer.CLOCK), HookServer.Options.of(config))) {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, Certificates.trusting(certificates.caCert), null);
            List<Socket> stalled = new ArrayList<>();
            try (SSLSocket kept = (SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", server.port())) {
                kept.startHandshake();
                for (int i = 0; i < 300; i++) {
                    Socket socket = new Socket("127.0.0.1", server.port());
                    stalled.add(socket);
                    if (i % 2 == 1) {
                        socket.getOutputStream().write(PARTIAL_CLIENT_HELLO);
                    }
                }
                long until = System.nanoTime() + HeaderDeadline.DEADLINE.plus(MARGIN).toNanos();
                while (open(stalled) > 0 && System.nanoTime() < until) {
                    Thread.sleep(250);
                }
                assertEquals(0, open(stalled), "of 300 connections that never finished their handshake, still open after the deadline and "
                        + MARGIN.toSeconds() + " s");
                assertFalse(closed(kept), "a connection that finished its handshake and waits is kept");
            } finally {
                closeAll(stalled);
            }
        }
    }

    @Test
    void theManagementPortClosesConnectionsSendingTheirHeadersAByteASecond() throws Exception {
        ServerConfig config = config().withManagementPort(0);
        byte[] head = ("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + "a".repeat(200)).getBytes(StandardCharsets.US_ASCII);
        try (HookServer server = HookServer.start(new HookEngine(TestServer.widgets(), TestServer.CLOCK), HookServer.Options.of(config));
             Socket kept = new Socket("127.0.0.1", server.managementPort())) {
            kept.getOutputStream().write("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            InputStream answer = kept.getInputStream();
            byte[] ok = answer.readNBytes("HTTP/1.1 200".length());
            assertEquals("HTTP/1.1 200", new String(ok, StandardCharsets.US_ASCII));
            List<Socket> trickling = new ArrayList<>();
            try {
                for (int i = 0; i < 500; i++) {
                    trickling.add(new Socket("127.0.0.1", server.managementPort()));
                }
                long until = System.nanoTime() + HeaderDeadline.DEADLINE.plus(MARGIN).toNanos();
                for (int sent = 0; open(trickling) > 0 && System.nanoTime() < until; sent++) {
                    for (Socket socket : trickling) {
                        if (!socket.isClosed()) {
                            send(socket, head[Math.min(sent, head.length - 1)]);
                        }
                    }
                    Thread.sleep(1000);
                }
                assertEquals(0, open(trickling), "of 500 connections sending their head a byte a second, still open after the deadline and "
                        + MARGIN.toSeconds() + " s");
                answer.skip(answer.available());
                assertFalse(closed(kept), "a connection answered and kept alive stays open");
            } finally {
                closeAll(trickling);
            }
        }
    }

    private static ServerConfig config() {
        return ServerConfig.defaults().withHost("127.0.0.1").withPort(0).withShutdownIdle(Duration.ZERO);
    }

    /** Writes a byte; a connection the server closed is closed here too. */
    private static void send(Socket socket, byte b) {
        try {
            socket.getOutputStream().write(b);
        } catch (IOException e) {
            close(socket);
        }
    }

    /** How many of the connections the server has not closed; those it closed are closed here too. */
    private static int open(List<Socket> sockets) throws IOException {
        int open = 0;
        for (Socket socket : sockets) {
            if (!socket.isClosed() && closed(socket)) {
                close(socket);
            }
            open += socket.isClosed() ? 0 : 1;
        }
        return open;
    }

    /** Whether the server closed the connection: its end of stream or a reset, rather than nothing to read yet. */
    private static boolean closed(Socket socket) throws IOException {
        socket.setSoTimeout(1);
        try {
            return socket.getInputStream().read() < 0;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true;
        }
    }

    private static void close(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // closing what the server closed already
        }
    }

    private static void closeAll(List<Socket> sockets) {
        sockets.forEach(HeaderDeadlineTest::close);
    }
}
