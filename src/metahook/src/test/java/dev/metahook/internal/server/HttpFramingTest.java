package dev.metahook.internal.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahook.testing.RawHttp;
import dev.metahook.testing.Scrapes;
import dev.metahook.testing.Requests;
import dev.metahook.testing.TestServer;
import dev.metahook.internal.wire.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Requests broken at the HTTP level, sent over raw sockets: every one gets its 4xx status and a
 * problem+json body, never a 500 or an HTML page, and the log and metrics count the status sent.
 */
class HttpFramingTest {
    private static final byte[] GOOD = Requests.bytes(Requests.sync(Requests.widget("framed", 2, "ok"), List.of(), false));
    @RegisterExtension
    static final TestServer server = TestServer.of(() -> TestServer.widgets(), ServerConfig.defaults().withMaxBodySize(64 * 1024)
                .withIdleTimeout(Duration.ofSeconds(1)));

    @AfterEach
    void aGoodRequestStillGetsItsAnswer() throws IOException {
        RawHttp.Response response = RawHttp.send(server.port(), request("POST", "/widget/sync", GOOD, "Content-Length: " + GOOD.length), false);
        assertEquals(200, response.status(), response.body());
    }

    private static byte[] request(String method, String path, byte[] body, String... headers) {
        StringBuilder head = new StringBuilder(method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n");
        for (String header : headers) {
            head.append(header).append("\r\n");
        }
        byte[] start = head.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1);
        byte[] all = new byte[start.length + body.length];
        System.arraycopy(start, 0, all, 0, start.length);
        System.arraycopy(body, 0, all, start.length, body.length);
        return all;
    }

    /** The answer is problem+json with this status in its body too, and says nothing of Java. */
    private static JsonNode problem(RawHttp.Response response, int status) throws IOException {
        assertEquals(status, response.status(), response.body());
        assertTrue(response.header("Content-Type").startsWith("application/problem+json"), response.headers().toString());
        JsonNode body = Json.mapper().readTree(response.body());
        assertEquals(status, body.path("status").asInt(), response.body());
        assertFalse(body.path("detail").asText().isEmpty(), response.body());
        assertFalse(response.body().contains("org.eclipse") || response.body().contains("Exception"), response.body());
        return body;
    }

    /**
     * Answers are written with their length, never chunked, on a connection kept for the next call:
     * a 200, a 400 problem and the 304 of a caller that has the answer, one after the other.
     */
    @Test
    void answersCarryTheirLengthOnAKeptConnection() throws IOException {
        byte[] bad = "{\"parent\":[]}".getBytes(StandardCharsets.UTF_8);
        try (Socket socket = new Socket("127.0.0.1", server.port())) {
            OutputStream out = socket.getOutputStream();
            out.write(keepAlive(GOOD));
            RawHttp.Response ok = RawHttp.read(socket.getInputStream());
            out.write(keepAlive(bad));
            RawHttp.Response refused = RawHttp.read(socket.getInputStream());
            out.write(keepAlive(GOOD, "If-None-Match: " + ok.header("ETag")));
            RawHttp.Response same = RawHttp.read(socket.getInputStream());
            assertEquals(200, ok.status(), ok.body());
            assertEquals(String.valueOf(ok.body().getBytes(StandardCharsets.UTF_8).length), ok.header("Content-Length"), ok.headers().toString());
            assertEquals(null, ok.header("Transfer-Encoding"));
            assertEquals("application/json", ok.header("Content-Type"));
            assertEquals("framed", Json.mapper().readTree(ok.body()).path("children").path(0).path("metadata").path("name").asText(), ok.body());
            assertEquals(400, problem(refused, 400).path("status").asInt());
            assertEquals(String.valueOf(refused.body().getBytes(StandardCharsets.UTF_8).length), refused.header("Content-Length"));
            assertEquals(304, same.status());
            assertEquals("", same.body());
        }
    }

    private static byte[] keepAlive(byte[] body, String... headers) {
        StringBuilder head = new StringBuilder("POST /widget/sync HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: " + body.length + "\r\n");
        for (String header : headers) {
            head.append(header).append("\r\n");
        }
        byte[] start = head.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1);
        byte[] all = Arrays.copyOf(start, start.length + body.length);
        System.arraycopy(body, 0, all, start.length, body.length);
        return all;
    }

    /** An HTTP/2 client that sends its preface to this HTTP/1.1 port is told to speak HTTP/1.1, with a problem body. */
    @Test
    void anHttp2PrefaceIs426WithAProblemBody() throws IOException {
        byte[] preface = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1);
        JsonNode body = problem(RawHttp.send(server.port(), preface, true), 426);
        assertTrue(body.path("detail").asText().contains("HTTP/1.1"), body.toString());
    }

    @Test
    void optionsStarIs404WithAProblemBody() throws IOException {
        problem(RawHttp.send(server.port(), request("OPTIONS", "*", new byte[0]), true), 404);
    }

    @Test
    void aBodyShorterThanItsContentLengthIs400() throws IOException {
        byte[] half = Arrays.copyOf(GOOD, GOOD.length / 2);
        RawHttp.Response response = RawHttp.send(server.port(), request("POST", "/widget/sync", half, "Content-Length: " + GOOD.length), true);
        assertTrue(problem(response, 400).path("detail").asText().contains("ended before"), response.body());
        String counted = "code=\"400\",controller=\"widget\",hook=\"sync\",outcome=\"bad-framing\"";
        assertTrue(Scrapes.showing(server.port(), counted).contains(counted), "the metric says 400");
    }

    @Test
    void aChunkSizeOverflowIs400() throws IOException {
        byte[] chunked = "ffffffffffffffff\r\n{}\r\n0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1);
        problem(RawHttp.send(server.port(), request("POST", "/widget/sync", chunked, "Transfer-Encoding: chunked"), true), 400);
        String counted = "code=\"400\",controller=\"widget\",hook=\"sync\"";
        assertFalse(Scrapes.showing(server.port(), counted).contains("code=\"500\""), "no 500 counted");
    }

    /**
     * docs/configuration.md: {@code IDLE_TIMEOUT_SECONDS} (1 s on this server) is the keep-alive wait
     * between requests only; a body is cut by its own read limits (a 5 s pause), so a 2 s pause is
     * answered 200. Jetty's clock cannot be injected, hence the real pause.
     */
    @Test
    void aBodyPausingLongerThanTheKeepAliveIdleTimeoutIsStillRead() throws Exception {
        byte[] whole = request("POST", "/widget/sync", GOOD, "Content-Length: " + GOOD.length);
        int split = whole.length - GOOD.length / 2;
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", server.port())) {
            socket.setSoTimeout(30_000);
            socket.getOutputStream().write(whole, 0, split);
            socket.getOutputStream().flush();
            Thread.sleep(2000);
            socket.getOutputStream().write(whole, split, whole.length - split);
            socket.getOutputStream().flush();
            RawHttp.Response response = RawHttp.read(socket.getInputStream());
            assertEquals(200, response.status(), response.body());
        }
    }

    @Test
    void aBodyThatStopsComingIs408AndCountedAs408() throws IOException {
        byte[] part = Arrays.copyOf(GOOD, 10);
        RawHttp.Response response = RawHttp.send(server.port(), request("POST", "/widget/sync", part, "Content-Length: " + GOOD.length), false);
        problem(response, 408);
        String counted = "code=\"408\",controller=\"widget\",hook=\"sync\",outcome=\"body-timeout\"";
        String metrics = Scrapes.showing(server.port(), counted);
        assertTrue(metrics.contains(counted), metrics);
        assertFalse(metrics.contains("code=\"500\""), metrics);
    }

    /**
     * A body trickled at about 100 bytes a second, never pausing near the read idle limit, so that
     * without the minimum body rate ({@link BodyIntake#MIN_BODY_RATE}) all of it would arrive well
     * within the body deadline and be answered 200.
     */
    @Test
    void aBodyBelowTheMinimumRateIs408BeforeItIsAllThere() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", server.port())) {
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            out.write(request("POST", "/widget/sync", new byte[0], "Content-Length: " + GOOD.length));
            int sent = 0;
            try {
                while (sent < GOOD.length && socket.getInputStream().available() == 0) {
                    out.write(GOOD[sent++]);
                    out.flush();
                    Thread.sleep(10);
                }
            } catch (IOException closedByTheServer) {
                // the answer is already there
            }
            assertTrue(sent < GOOD.length, "the server answered before the body was all sent");
            problem(RawHttp.read(socket.getInputStream()), 408);
        }
        String counted = "code=\"408\",controller=\"widget\",hook=\"sync\",outcome=\"body-timeout\"";
        assertTrue(Scrapes.showing(server.port(), counted).contains(counted), "the metric says 408");
    }

    @Test
    void headersTooLargeAre431() throws IOException {
        problem(RawHttp.send(server.port(), request("POST", "/widget/sync", GOOD, "Content-Length: " + GOOD.length,
                "X-Padding: " + "x".repeat(20_000)), false), 431);
    }

    @Test
    void aUriTooLongIs414() throws IOException {
        problem(RawHttp.send(server.port(), request("POST", "/widget/" + "s".repeat(20_000), GOOD, "Content-Length: " + GOOD.length), false), 414);
    }

    @Test
    void twoContentLengthsAre400() throws IOException {
        problem(RawHttp.send(server.port(), request("POST", "/widget/sync", GOOD, "Content-Length: " + GOOD.length,
                "Content-Length: " + (GOOD.length - 1)), false), 400);
    }

    @Test
    void contentLengthWithChunkedIs400() throws IOException {
        byte[] chunked = (Integer.toHexString(GOOD.length) + "\r\n" + new String(GOOD, StandardCharsets.ISO_8859_1) + "\r\n0\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1);
        problem(RawHttp.send(server.port(), request("POST", "/widget/sync", chunked, "Content-Length: " + GOOD.length,
                "Transfer-Encoding: chunked"), false), 400);
    }

    @Test
    void badPercentEncodingIs400() throws IOException {
        problem(RawHttp.send(server.port(), request("POST", "/widget/sy%zznc", GOOD, "Content-Length: " + GOOD.length), false), 400);
    }

    @Test
    void noHostIs400() throws IOException {
        String head = "POST /widget/sync HTTP/1.1\r\nConnection: close\r\nContent-Length: " + GOOD.length + "\r\n\r\n";
        byte[] bytes = (head + new String(GOOD, StandardCharsets.ISO_8859_1)).getBytes(StandardCharsets.ISO_8859_1);
        problem(RawHttp.send(server.port(), bytes, false), 400);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"GET", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "PROPFIND", "FOO"})
    void everyOtherMethodOnAHookPathIs405(String method) throws IOException {
        RawHttp.Response response = RawHttp.send(server.port(), request(method, "/widget/sync", new byte[0]), false);
        problem(response, 405);
        assertEquals("POST", response.header("Allow"));
    }

    @Test
    void headOnAHookPathIs405WithoutABody() throws IOException {
        RawHttp.Response response = RawHttp.send(server.port(), request("HEAD", "/widget/sync", new byte[0]), false);
        assertEquals(405, response.status());
        assertEquals("POST", response.header("Allow"));
    }
}
