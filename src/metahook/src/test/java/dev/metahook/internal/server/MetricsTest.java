package dev.metahook.internal.server;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.metahook.api.Result;
import dev.metahook.api.Controllers;
import dev.metahook.testing.Requests;
import dev.metahook.testing.Scrapes;
import dev.metahook.testing.TestServer;
import dev.metahook.testing.Widget;
import dev.metahook.testing.WidgetController;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code /metrics} after some calls: what Prometheus would scrape. */
class MetricsTest {

    @Test
    void countsCallsChildrenRefusalsAndNotModified() {
        try (TestServer server = TestServer.start(Controllers.builder()
                .composite("widget", Widget.class, new WidgetController())
                .composite("omits", Widget.class, (w, c) -> Result.of())
                .build())) {
            byte[] observed = Requests.bytes(Requests.sync(Requests.widget("hello", 3, "hi"),
                    List.of(Requests.observedConfigMap("hello", 3, "hi"), Requests.observedConfigMap("old", 1, "x")), false));
            String etag = given().port(server.port()).body(observed).post("/widget/sync").then().statusCode(200).extract().header("ETag");
            given().port(server.port()).header("If-None-Match", etag).body(observed).post("/widget/sync").then().statusCode(304);
            given().port(server.port()).body(observed).post("/omits/sync").then().statusCode(500);
            given().port(server.port()).body("{}").post("/no-such-controller-" + System.nanoTime() + "/sync").then().statusCode(404);

            String metrics = Scrapes.showing(server.port(), "outcome=\"unknown-controller\"", "metahook_hook_refused_total{controller=\"omits\"",
                    "code=\"304\"", "metahook_hook_in_flight 0");
            assertTrue(metrics.contains("metahook_hook_requests_seconds_count{code=\"200\",controller=\"widget\",hook=\"sync\",outcome=\"synced\"} 1"), metrics);
            assertTrue(metrics.contains("metahook_hook_requests_seconds_count{code=\"304\",controller=\"widget\",hook=\"sync\",outcome=\"synced\"} 1"), metrics);
            assertTrue(metrics.contains("metahook_hook_requests_seconds_bucket{code=\"200\",controller=\"widget\",hook=\"sync\",outcome=\"synced\",le=\"10.0\"} 1"), metrics);
            assertTrue(metrics.contains("metahook_hook_refused_total{controller=\"omits\",hook=\"sync\"} 1"), metrics);
            assertTrue(metrics.contains("metahook_hook_not_modified_total{controller=\"widget\",hook=\"sync\"} 1"), metrics);
            assertTrue(metrics.contains("metahook_hook_children_sum{controller=\"widget\",hook=\"sync\",kind=\"observed\"} 4"), metrics);
            assertTrue(metrics.contains("metahook_hook_children_sum{controller=\"widget\",hook=\"sync\",kind=\"desired\"} 2"), metrics);
            assertTrue(metrics.contains("controller=\"unknown\",hook=\"sync\",outcome=\"unknown-controller\""), "no label per unknown name");
            assertFalse(metrics.contains("no-such-controller"), "unknown names never become labels");
            assertTrue(metrics.contains("metahook_hook_in_flight 0"), metrics);
            assertTrue(metrics.contains("jvm_memory_used_bytes"), "JVM metrics");
            assertTrue(metrics.contains("process_uptime_seconds"), "process metrics");
            assertFalse(metrics.contains("hello"), "never a label per parent");
        }
    }

    @Test
    void showsJettysRequestThreadsAndTheHookListenersConnections() throws Exception {
        try (TestServer server = TestServer.start(Controllers.builder().composite("widget", Widget.class, new WidgetController()).build())) {
            String before = scrape(server);
            assertTrue(value(before, "jetty_threads_config_max") > 0, before);
            assertTrue(value(before, "jetty_threads_current") > 0, before);
            assertTrue(value(before, "jetty_threads_busy") >= 0, before);
            assertTrue(value(before, "jetty_threads_idle") >= 0, before);
            assertTrue(value(before, "jetty_threads_jobs") >= 0, before);
            assertFalse(before.contains("jetty_connections_bytes"), "bytes are not counted: " + before);
            double closedBefore = value(before, "jetty_connections_request_seconds_count{connector_name=\"hook\",type=\"server\"}");

            try (Socket kept = new Socket("127.0.0.1", server.port())) {
                kept.getOutputStream().write("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                kept.getOutputStream().flush();
                kept.getInputStream().read(new byte[256]);
                String open = scrape(server);
                assertTrue(value(open, "jetty_connections_current_connections{connector_name=\"hook\"}") >= 2, "the kept one and the scrape's: " + open);
            }
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            String after = scrape(server);
            while (value(after, "jetty_connections_request_seconds_count{connector_name=\"hook\",type=\"server\"}") < closedBefore + 1) {
                assertTrue(System.nanoTime() - deadline < 0, "the closed connection is never counted: " + after);
                Thread.sleep(20);
                after = scrape(server);
            }
        }
    }

    @Test
    void aTlsConnectionToTheHookPortCountsOnce(@TempDir Path dir) throws Exception {
        Certificates certificates = new Certificates(dir);
        ServerConfig config = ServerConfig.defaults().withManagementPort(0)
                .withTls(new ServerConfig.Tls(certificates.serverCert, certificates.serverKey, null));
        try (TestServer server = TestServer.start(TestServer.widgets(), config)) {
            SSLContext tls = SSLContext.getInstance("TLS");
            tls.init(null, Certificates.trusting(certificates.caCert), null);
            HttpClient client = HttpClient.newBuilder().sslContext(tls).version(HttpClient.Version.HTTP_1_1).build();
            HttpResponse<String> sync = client.send(HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + server.port() + "/widget/sync"))
                    .POST(HttpRequest.BodyPublishers.ofByteArray(Requests.bytes(Requests.sync(Requests.widget("hello", 3, "hi"), List.of(), false))))
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, sync.statusCode(), sync.body());

            String metrics = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + server.managementPort() + "/metrics")).build(), HttpResponse.BodyHandlers.ofString()).body();
            assertEquals(1.0, value(metrics, "jetty_connections_max_connections{connector_name=\"hook\"}"),
                    "the TLS connection, once (its TLS layer is not a connection of its own): " + metrics);
        }
    }

    private static String scrape(TestServer server) {
        return given().port(server.port()).get("/metrics").then().statusCode(200).extract().asString();
    }

    /** The value of the one series whose name and labels begin with {@code series}. */
    private static double value(String metrics, String series) {
        Matcher line = Pattern.compile("^" + Pattern.quote(series) + "[{ ].*?([-0-9.Ee+]+)$|^" + Pattern.quote(series) + " ([-0-9.Ee+]+)$",
                Pattern.MULTILINE).matcher(metrics);
        assertTrue(line.find(), "no " + series + " in " + metrics);
        double value = Double.parseDouble(line.group(1) != null ? line.group(1) : line.group(2));
        assertFalse(line.find(), "more than one " + series);
        return value;
    }
}
