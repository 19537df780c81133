package dev.metahook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.metahook.api.Controllers;
import dev.metahook.testing.Requests;
import dev.metahook.testing.ServiceProcess;
import dev.metahook.testing.Widget;
import dev.metahook.testing.WidgetController;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A user's own service, whose main calls {@code Metahook.serve}, run as a process and sent SIGTERM: it exits as
 * the built-in service does, 0 after a drain that answered every request that arrived, 1 when one went unanswered
 * (the JVM alone would exit 143 either way).
 */
class ServeExitCodeTest {
    /** The user's service: one controller, everything else from the environment. */
    public static final class Service {
        private Service() {
        }

        public static void main(String[] args) {
            Metahook.serve(Controllers.builder().composite("widget", Widget.class, new WidgetController()).build());
        }
    }

    @Test
    void exitsZeroAfterADrainThatAnsweredEveryRequest() throws Exception {
        ServiceProcess service = ServiceProcess.start(System.getProperty("java.class.path"), Service.class, Map.of());
        HttpResponse<String> sync = service.post("/widget/sync", body());
        assertEquals(200, sync.statusCode(), sync.body());

        String output = service.stop();

        assertEquals(0, service.exitCode(), output);
        assertTrue(output.contains("stopped: every request that arrived was answered"), output);
    }

    @Test
    void exitsOneWhenARequestThatArrivedWentUnanswered() throws Exception {
        ServiceProcess service = ServiceProcess.start(System.getProperty("java.class.path"), Service.class,
                Map.of("SHUTDOWN_TIMEOUT_SECONDS", "1"));
        byte[] body = body();
        try (Socket halfSent = new Socket("127.0.0.1", service.port())) {
            OutputStream out = halfSent.getOutputStream();
            out.write(("POST /widget/sync HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + "Content-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(body, 0, body.length / 2);
            out.flush();
            awaitInFlight(service.port());

            String output = service.stop();

            assertEquals(1, service.exitCode(), output);
            assertTrue(output.contains("stopped: requests that arrived were not answered"), output);
        }
    }

    private static byte[] body() {
        return Requests.bytes(Requests.sync(Requests.widget("hello", 3, "hi"), List.of(), false));
    }

    /** Until the service counts the half-sent call as in flight. */
    private static void awaitInFlight(int port) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() - deadline < 0) {
            String metrics = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics")).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            if (metrics.contains("metahook_hook_in_flight 1.0")) {
                return;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("the half-sent call never got in flight");
    }
}
