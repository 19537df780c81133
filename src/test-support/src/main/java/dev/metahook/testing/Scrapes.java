package dev.metahook.testing;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Arrays;

/**
 * {@code /metrics} as Prometheus scrapes it. The server counts a call just after its answer is written, so a scrape
 * sent as soon as the answer arrives may not count that call yet: {@link #showing} waits for the lines a test expects.
 */
public final class Scrapes {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final Duration PATIENCE = Duration.ofSeconds(10);

    private Scrapes() {
    }

    /** One scrape of {@code /metrics} on the port; fails unless it is 200. */
    public static String of(int port) {
        try {
            HttpResponse<String> scrape = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
            if (scrape.statusCode() != 200) {
                throw new AssertionError("/metrics answered " + scrape.statusCode() + ": " + scrape.body());
            }
            return scrape.body();
        } catch (IOException e) {
            throw new AssertionError("/metrics could not be scraped: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while scraping /metrics", e);
        }
    }

    /**
     * The first scrape that holds every one of {@code lines}, or the last one of 10 s of scrapes: the test's own
     * assertions then say what is missing.
     */
    public static String showing(int port, String... lines) {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        String scrape = of(port);
        while (!Arrays.stream(lines).allMatch(scrape::contains) && System.nanoTime() < deadline) {
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting for /metrics", e);
            }
            scrape = of(port);
        }
        return scrape;
    }
}
