package dev.metahook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.metahook.api.Controllers;
import dev.metahook.testing.TestServer;
import dev.metahook.testing.Widget;
import dev.metahook.testing.WidgetController;
import dev.metahook.testing.Requests;
import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** A service of one's own, as {@code Metahook.serve} starts it: its own meters are scraped with metahook's. */
class MetahookServeTest {

    @Test
    void aMeterTheServiceRegistersIsOnMetrics() throws Exception {
        Server server = Metahook.serve(Controllers.builder().composite("widget", Widget.class, new WidgetController()).build(),
                ServeOptions.defaults().host("127.0.0.1").port(0).clock(TestServer.CLOCK).build());
        try {
            Counter made = Counter.builder("greetings.made").description("Greetings the service made").register(server.meterRegistry());
            made.increment(3);
            HttpResponse<String> metrics = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/metrics")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, metrics.statusCode());
            assertTrue(metrics.body().contains("greetings_made_total 3.0"), metrics.body());
            assertTrue(metrics.body().contains("metahook_hook_in_flight"), "beside metahook's own");
        } finally {
            server.shutdown();
        }
    }

    /**
     * Micrometer warns when a registry joins a composite that has meters already (once a process, then at DEBUG):
     * the user's joins before any is made.
     */
    @Test
    void aRegistryOfTheUsersOwnJoinsBeforeAnyMeterSoMicrometerHasNothingToWarnAbout() {
        Logger composite = (Logger) LoggerFactory.getLogger(CompositeMeterRegistry.class);
        Level level = composite.getLevel();
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        logged.start();
        composite.addAppender(logged);
        composite.setLevel(Level.DEBUG);
        Server server = null;
        try {
            server = Metahook.serve(Controllers.builder().composite("widget", Widget.class, new WidgetController()).build(),
                    ServeOptions.defaults().host("127.0.0.1").port(0).clock(TestServer.CLOCK).meterRegistry(new SimpleMeterRegistry()).build());
        } finally {
            composite.detachAppender(logged);
            composite.setLevel(level);
            if (server != null) {
                server.shutdown();
            }
        }
        assertEquals(List.of(), logged.list.stream().map(ILoggingEvent::getFormattedMessage)
                .filter(message -> message.contains("already has registered Meters")).toList());
    }

    /** A registry of the user's own gets the hook metrics (and /metrics keeps serving Prometheus). */
    @Test
    void aRegistryOfTheUsersOwnReceivesTheHookMetrics() throws Exception {
        SimpleMeterRegistry own = new SimpleMeterRegistry();
        Server server = Metahook.serve(Controllers.builder().composite("widget", Widget.class, new WidgetController()).build(),
                ServeOptions.defaults().host("127.0.0.1").port(0).clock(TestServer.CLOCK).meterRegistry(own).build());
        try {
            HttpClient client = HttpClient.newHttpClient();
            byte[] body = Requests.bytes(Requests.sync(Requests.widget("hello", 3, "hi"), List.of(), false));
            HttpResponse<String> sync = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/widget/sync"))
                    .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, sync.statusCode(), sync.body());
            // a call is counted once its answer is written, which the client may see first
            Timer requests = null;
            for (long end = System.nanoTime() + 5_000_000_000L; System.nanoTime() < end; Thread.sleep(10)) {
                requests = own.find("metahook.hook.requests").tags("controller", "widget", "hook", "sync", "code", "200").timer();
                if (requests != null && requests.count() == 1) {
                    break;
                }
            }
            assertTrue(requests != null && requests.count() == 1, own.getMetersAsString());
            Gauge buildInfo = own.find("metahook.build.info").gauge();
            assertTrue(buildInfo != null && buildInfo.value() == 1.0, own.getMetersAsString());
            assertEquals(System.getProperty("java.version"), buildInfo.getId().getTag("java_version"));
            assertEquals(builtVersion(), buildInfo.getId().getTag("version"));
            assertTrue(own.find("metahook.hook.in.flight").gauge() != null);
            // the process's meters are /metrics' only: the service's registry binds its own
            assertNull(own.find("jvm.memory.used").gauge(), own.getMetersAsString());
            Counter.builder("greetings.made").register(server.meterRegistry()).increment(2);
            assertEquals(2.0, own.find("greetings.made").counter().count());

            String metrics = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/metrics")).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            assertTrue(metrics.contains("metahook_hook_requests_seconds_count{code=\"200\",controller=\"widget\",hook=\"sync\",outcome=\"synced\"} 1"),
                    metrics);
            assertTrue(metrics.contains("metahook_build_info{java_version=\"" + System.getProperty("java.version") + "\",version=\""), metrics);
            assertTrue(metrics.contains("jvm_memory_used_bytes"), metrics);
            assertTrue(metrics.contains("greetings_made_total 2.0"), metrics);
        } finally {
            server.shutdown();
        }
    }

    /** The version Maven wrote into metahook's jar, or {@code unknown} when metahook is on the class path as classes. */
    private static String builtVersion() throws java.io.IOException {
        try (var in = Metahook.class.getResourceAsStream("/META-INF/maven/dev.metahook/metahook/pom.properties")) {
            if (in == null) {
                return "unknown";
            }
            java.util.Properties properties = new java.util.Properties();
            properties.load(in);
            return properties.getProperty("version");
        }
    }
}
