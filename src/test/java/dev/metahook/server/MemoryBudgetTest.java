package dev.metahook.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class MemoryBudgetTest {
    private static final long MIB = 1024 * 1024;
    private final MemoryBudget budget = new MemoryBudget(200 * MIB);

    @Test
    void aCallCostsItsBodyTimesTheWorkFactorPlusAFixedPart() {
        assertEquals(MemoryBudget.PER_CALL + 6 * MIB, budget.cost(MIB));
        assertEquals(MemoryBudget.PER_CALL, budget.cost(-1), "a chunked body starts with the fixed part");
    }

    @Test
    void refusesWhatTheBudgetCannotHoldAndTakesItAgainOnceGivenBack() throws InterruptedException {
        MemoryBudget.Reservation first = budget.reserve(16 * MIB, Duration.ZERO);
        assertNotNull(first);
        assertNull(budget.reserve(16 * MIB, Duration.ZERO), "two calls of 16 MiB cost more than 180 MiB");
        first.close();
        first.close();
        MemoryBudget.Reservation again = budget.reserve(16 * MIB, Duration.ZERO);
        assertNotNull(again, "given back once, whatever the number of closes");
        again.close();
        assertEquals(200 * MIB, budget.available());
    }

    @Test
    void smallCallsPassWhileLargeOnesHoldTheRest() throws InterruptedException {
        MemoryBudget.Reservation large = budget.reserve(29 * MIB, Duration.ZERO);
        assertNotNull(large);
        assertNull(budget.reserve(MIB, Duration.ZERO), "the large share is spent");
        for (int i = 0; i < 100; i++) {
            assertNotNull(budget.reserve(10 * 1024, Duration.ZERO), "small call " + i + " uses the small share");
        }
        large.close();
    }

    @Test
    void anyAllowedBodyPassesAloneEvenOnASmallHeap() throws InterruptedException {
        MemoryBudget tiny = new MemoryBudget(32 * MIB);
        MemoryBudget.Reservation alone = tiny.reserve(16 * MIB, Duration.ZERO);
        assertNotNull(alone);
        assertNull(tiny.reserve(16 * MIB, Duration.ZERO));
        alone.close();
    }

    @Test
    void aChunkedBodyGrowsItsReservationUntilTheBudgetIsSpent() throws InterruptedException {
        MemoryBudget.Reservation other = budget.reserve(16 * MIB, Duration.ZERO);
        MemoryBudget.Reservation chunked = budget.reserve(-1, Duration.ZERO);
        assertTrue(chunked.growTo(10 * MIB, Duration.ZERO));
        assertTrue(chunked.bytes() >= budget.cost(10 * MIB));
        assertFalse(chunked.growTo(16 * MIB, Duration.ZERO), "with another 16 MiB call in flight, 16 MiB more do not fit");
        other.close();
        assertTrue(chunked.growTo(16 * MIB, Duration.ZERO), "alone, it fits");
        chunked.close();
        assertEquals(200 * MIB, budget.available());
    }
}
