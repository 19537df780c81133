package dev.metahook.internal.server;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.metahook.internal.engine.HookAnswer;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A warm-up call's metrics are rehearsed apart: never on /metrics, never in the count of the calls served after it. */
class HookMetricsTest {
    private static final String SYNCED_404 =
            "metahook_hook_requests_seconds_count{code=\"404\",controller=\"widget\",hook=\"sync\",outcome=\"unknown-hook\"}";

    @Test
    void aRehearsedCallIsNotScrapedAndTheServedOnesCountFromOne() {
        HookMetrics metrics = new HookMetrics(Set.of("widget"));
        HookAnswer answer = HookAnswer.outcomeOnly(404, "unknown-hook");
        metrics.rehearsed("widget", "sync", answer, 404, Duration.ofMillis(3));
        metrics.rehearsed("widget", "sync", answer, 404, Duration.ofMillis(3));
        assertFalse(metrics.scrape().contains("metahook_hook_requests"), metrics.scrape());
        assertFalse(metrics.scrape().contains("metahook_hook_children"), metrics.scrape());

        metrics.finished("widget", "sync", answer, 404, Duration.ofMillis(3));
        assertTrue(metrics.scrape().contains(SYNCED_404 + " 1"), metrics.scrape());
        assertFalse(metrics.registry().find("metahook.hook.requests").timers().stream().anyMatch(t -> t.count() != 1),
                "only the served call in the registry a service's meters share");
    }
}
