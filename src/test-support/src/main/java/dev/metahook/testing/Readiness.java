package dev.metahook.testing;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Supplier;

/** Waits for a service the test started as a process of its own to say {@code /readyz} 200. */
public final class Readiness {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private Readiness() {
    }

    /** Polls {@code /readyz} on the port for up to 60 s; fails with the process's output when it stops first or never gets ready. */
    public static void await(int port, Process process, Supplier<String> output) throws InterruptedException {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(60));
        while (Instant.now().isBefore(deadline)) {
            assertTrue(process.isAlive(), () -> "the service stopped before it was ready: " + output.get());
            try {
                HttpResponse<String> ready = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/readyz"))
                        .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
                if (ready.statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(100);
        }
        throw new AssertionError("not ready within 60 s: " + output.get());
    }
}
