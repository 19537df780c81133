package dev.metahook.internal.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.metahook.internal.engine.HookAnswer;
import dev.metahook.testing.TestServer;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Each route's calls and refusals are scraped at zero from the start; a warm-up call's metrics are rehearsed apart:
 * never on /metrics, never in the count of the calls served after it.
 */
class HookMetricsTest {
    private static final String SYNCED_404 =
            "metahook_hook_requests_seconds_count{code=\"404\",controller=\"widget\",hook=\"sync\",outcome=\"unknown-hook\"}";

    @Test
    void eachRouteIsScrapedAtZeroBeforeItsFirstCall() {
        String scrape = new HookMetrics(TestServer.widgets()).scrape();
        assertTrue(scrape.contains(
                "metahook_hook_requests_seconds_count{code=\"200\",controller=\"widget\",hook=\"sync\",outcome=\"synced\"} 0\n"), scrape);
        assertTrue(scrape.contains("metahook_hook_refused_total{controller=\"widget\",hook=\"sync\"} 0.0\n"), scrape);
    }

    @Test
    void aRehearsedCallIsNotScrapedAndTheServedOnesCountFromOne() {
        HookMetrics metrics = new HookMetrics(TestServer.widgets());
        HookAnswer answer = HookAnswer.outcomeOnly(404, "unknown-hook");
        metrics.rehearsed("widget", "sync", answer, 404, Duration.ofMillis(3));
        metrics.rehearsed("widget", "sync", answer, 404, Duration.ofMillis(3));
        assertFalse(metrics.scrape().contains(SYNCED_404), metrics.scrape());
        assertEquals(0L, served(metrics), "the routes' series stay at zero");

        metrics.finished("widget", "sync", answer, 404, Duration.ofMillis(3));
        assertTrue(metrics.scrape().contains(SYNCED_404 + " 1"), metrics.scrape());
        assertEquals(1L, served(metrics), "only the served call in the registry a service's meters share");
    }

    private static long served(HookMetrics metrics) {
        return metrics.registry().find("metahook.hook.requests").timers().stream().mapToLong(Timer::count).sum();
    }
}
