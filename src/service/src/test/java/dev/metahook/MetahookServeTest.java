package dev.metahook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.metahook.api.Controllers;
import dev.metahook.testing.TestServer;
import dev.metahook.testing.Widget;
import dev.metahook.testing.WidgetController;
import io.micrometer.core.instrument.Counter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.Test;

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
}
