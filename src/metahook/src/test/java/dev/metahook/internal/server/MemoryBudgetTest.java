package dev.metahook.internal.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.metahook.internal.wire.JsonCensus;
import dev.metahook.internal.wire.ReferenceCensus;
import dev.metahook.internal.wire.CallBudget;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class MemoryBudgetTest {
    private static final long MIB = 1024 * 1024;
    private final MemoryBudget budget = new MemoryBudget(200 * MIB);

    @Test
    void aCallCostsItsBodyPlusEveryCopyOfItsTreesFromTheCensus() {
        JsonCensus census = ReferenceCensus.of("{\"a\":[{},{},{}],\"b\":\"xyz\"}".getBytes(StandardCharsets.UTF_8));
        assertEquals(MemoryBudget.PER_CALL + census.bytes() + MemoryBudget.NODE_COPIES * census.nodeBytes()
                + MemoryBudget.TYPED_OBJECT * 4 + MemoryBudget.ITEM_GROWTH * 3
                + MemoryBudget.STRING_COPIES * census.stringBytes() + MemoryBudget.LARGEST_STRING_COPIES * census.largestString(),
                MemoryBudget.cost(census));
    }

    @Test
    void bytesOfEmptyObjectsCostManyTimesBytesOfOneString() {
        byte[] objects = ("{\"a\":[" + "{},".repeat(100_000) + "{}]}").getBytes(StandardCharsets.UTF_8);
        byte[] string = ("{\"a\":\"" + "x".repeat(objects.length - 8) + "\"}").getBytes(StandardCharsets.UTF_8);
        assertEquals(objects.length, string.length);
        long perByteOfObjects = MemoryBudget.cost(ReferenceCensus.of(objects)) / objects.length;
        long perByteOfString = MemoryBudget.cost(ReferenceCensus.of(string)) / string.length;
        assertTrue(perByteOfObjects > 10 * perByteOfString, perByteOfObjects + " vs " + perByteOfString + " per byte");
    }

    @Test
    void theBudgetIsSplitIntoSmallReadingAndWorkingShares() {
        assertEquals(200 * MIB, budget.available());
        assertEquals((long) (200 * MIB * MemoryBudget.READING_SHARE) - MemoryBudget.PER_CALL, budget.largestBody(), 1024);
        assertEquals(budget.largestBody() / MemoryBudget.CHUNKED_READ, budget.largestChunkedBody());
        assertEquals((long) (200 * MIB * (1 - MemoryBudget.READING_SHARE - MemoryBudget.SMALL_SHARE)), budget.largestCall(), 2048);
    }

    @Test
    void readingThenWorkingHoldsTheCostAndGivesBackTheReadingShare() throws InterruptedException {
        MemoryBudget.Reservation call = budget.reserve(16 * MIB, Duration.ZERO);
        assertNotNull(call);
        assertEquals(16 * MIB + MemoryBudget.PER_CALL, call.bytes());
        assertTrue(call.work(100 * MIB, Duration.ZERO));
        assertEquals(100 * MIB, call.bytes(), "the working share covers the body too: the reading share is given back");
        call.close();
        call.close();
        assertEquals(200 * MIB, budget.available(), "given back once, whatever the number of closes");
    }

    @Test
    void aCallWaitingForWorkHoldsOnlyItsBodySoTheWorkingCallsFinish() throws InterruptedException {
        MemoryBudget.Reservation first = budget.reserve(10 * MIB, Duration.ZERO);
        assertTrue(first.work(budget.largestCall() - 10 * MIB, Duration.ZERO));
        MemoryBudget.Reservation second = budget.reserve(10 * MIB, Duration.ZERO);
        assertNotNull(second, "a body is still read while the working share is spent");
        assertFalse(second.work(20 * MIB, Duration.ZERO), "its work does not fit beside the first");
        first.close();
        assertTrue(second.work(20 * MIB, Duration.ZERO), "once the first is answered it does");
        second.close();
        assertEquals(200 * MIB, budget.available());
    }

    @Test
    void aCallCostingMoreThanTheWorkingShareNeverFits() throws InterruptedException {
        MemoryBudget.Reservation call = budget.reserve(MIB, Duration.ZERO);
        assertFalse(call.work(budget.largestCall() + 1024, Duration.ZERO));
        assertTrue(call.work(budget.largestCall(), Duration.ZERO));
        call.close();
    }

    @Test
    void readingIsRefusedWhenTheReadingShareIsSpent() throws InterruptedException {
        MemoryBudget.Reservation first = budget.reserve(budget.largestBody(), Duration.ZERO);
        assertNotNull(first);
        assertNull(budget.reserve(2 * MIB, Duration.ZERO), "the reading share is spent");
        first.close();
        assertNotNull(budget.reserve(2 * MIB, Duration.ZERO));
    }

    @Test
    void smallCallsPassWhileLargeOnesHoldTheRest() throws InterruptedException {
        MemoryBudget.Reservation working = budget.reserve(MIB, Duration.ZERO);
        assertTrue(working.work(budget.largestCall(), Duration.ZERO));
        MemoryBudget.Reservation reading = budget.reserve(budget.largestBody(), Duration.ZERO);
        assertNotNull(reading);
        assertNull(budget.reserve(2 * MIB, Duration.ZERO), "the reading share is spent");
        for (int i = 0; i < 20; i++) {
            MemoryBudget.Reservation small = budget.reserve(10 * 1024, Duration.ZERO);
            assertNotNull(small, "small call " + i + " uses the small share");
            assertTrue(small.work(300 * 1024, Duration.ZERO), "and works in it");
        }
        reading.close();
        working.close();
    }

    @Test
    void smallCallsOverflowIntoTheLargeSharesOnlyWhenTheyHaveRoomAtOnce() throws InterruptedException {
        long smallShare = (long) (200 * MIB * MemoryBudget.SMALL_SHARE);
        List<MemoryBudget.Reservation> held = new ArrayList<>();
        MemoryBudget.Reservation large = budget.reserve(budget.largestBody(), Duration.ZERO);
        for (MemoryBudget.Reservation r; (r = budget.reserve(100 * 1024, Duration.ZERO)) != null; ) {
            held.add(r);
        }
        assertEquals(smallShare / (164 * 1024), held.size(), "with the reading share spent, as many small bodies as the small share holds");
        held.get(0).close();
        assertNotNull(budget.reserve(100 * 1024, Duration.ZERO), "a small call takes the room a small call gave back");
        large.close();
        assertNotNull(budget.reserve(100 * 1024, Duration.ZERO), "with the small share spent, a small body is read in the reading share");
        MemoryBudget.Reservation overflowed = budget.reserve(100 * 1024, Duration.ZERO);
        assertTrue(overflowed.work(300 * 1024, Duration.ZERO), "and works in the working share, which has room");
        assertEquals(300 * 1024, overflowed.bytes());
        held.forEach(MemoryBudget.Reservation::close);
        overflowed.close();
    }

    @Test
    void aChunkedBodyGrowsItsReadingShareUntilItIsSpent() throws InterruptedException {
        MemoryBudget.Reservation other = budget.reserve(budget.largestBody() / 2, Duration.ZERO);
        MemoryBudget.Reservation chunked = budget.reserve(-1, Duration.ZERO);
        assertTrue(chunked.growReading(5 * MIB, Duration.ZERO));
        assertTrue(chunked.bytes() >= MemoryBudget.CHUNKED_READ * 5 * MIB);
        assertFalse(chunked.growReading(budget.largestChunkedBody(), Duration.ZERO), "beside another body, the largest does not fit");
        other.close();
        assertTrue(chunked.growReading(budget.largestChunkedBody(), Duration.ZERO), "alone, it does");
        assertFalse(chunked.growReading(budget.largestChunkedBody() + MIB, Duration.ZERO), "never more than the share");
        chunked.close();
        assertEquals(200 * MIB, budget.available());
    }

    @Test
    void anObservedObjectBuiltLaterClaimsMoreWithoutWaitingAndTheCloseGivesItBack() throws InterruptedException {
        MemoryBudget.Reservation call = budget.reserve(4 * MIB, Duration.ZERO);
        assertTrue(call.work(8 * MIB, Duration.ZERO));
        assertTrue(call.more(10), "a small claim takes a step of its own");
        assertEquals(8 * MIB + MemoryBudget.CLAIM_STEP, call.bytes());
        assertTrue(call.more(MemoryBudget.CLAIM_STEP - 10), "covered by what the step left");
        assertEquals(8 * MIB + MemoryBudget.CLAIM_STEP, call.bytes());
        assertTrue(call.more(budget.largestCall() - 8 * MIB - MemoryBudget.CLAIM_STEP), "up to the whole working share");
        assertFalse(call.more(2 * MemoryBudget.CLAIM_STEP), "nothing left, and a claim never waits");
        call.close();
        assertEquals(200 * MIB, budget.available());
    }

    @Test
    void aCallsUpFrontCostLeavesWhatItsObservedObjectsBuildOutUntilTheyAreBuilt() {
        String parent = "{\"metadata\":{\"name\":\"p\",\"annotations\":{\"note\":\"a longer string than the rest\"}}}";
        JsonCensus trees = ReferenceCensus.of(parent.getBytes(StandardCharsets.UTF_8));
        CallBudget.Work work = new CallBudget.Work(10_000, trees, 3, 2, 40);
        assertEquals(MemoryBudget.PER_CALL + 10_000 + MemoryBudget.LARGEST_STRING_COPIES * trees.largestString() + MemoryBudget.treeCost(trees)
                + 3 * MemoryBudget.OBSERVED_OBJECT + 2 * MemoryBudget.GROUP + MemoryBudget.STRING_COPIES * 40, MemoryBudget.upFront(work));
        String child = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"data\":{\"a\":\"the largest string of all of them\"}}";
        JsonCensus object = ReferenceCensus.of(child.getBytes(StandardCharsets.UTF_8));
        assertEquals(MemoryBudget.treeCost(object) + MemoryBudget.LARGEST_STRING_COPIES * object.largestString(), MemoryBudget.objectCost(object));
    }

    private static CallBudget.Work work(long bodyBytes) {
        return new CallBudget.Work(bodyBytes, JsonCensus.NOTHING, 0, 0, 0);
    }

    @Test
    void aReservationAsTheCallsBudgetAdmitsItsWorkThenItsClaimsAndGivesAllBackOnce() throws InterruptedException {
        MemoryBudget.Reservation call = budget.reserve(MIB, Duration.ZERO);
        call.admit(work(MIB));
        assertEquals(MemoryBudget.upFront(work(MIB)), call.bytes(), 1024);
        JsonCensus object = ReferenceCensus.of("{\"data\":{\"k\":\"v\"}}".getBytes(StandardCharsets.UTF_8));
        assertEquals(MemoryBudget.objectCost(object), call.costOf(object));
        call.claim(call.costOf(object));
        assertNull(call.refusal());
        call.close();
        assertEquals(200 * MIB, budget.available());
    }

    @Test
    void workNoCallCouldHoldIsRefusedForGoodAndTheRefusalSticks() throws InterruptedException {
        MemoryBudget.Reservation call = budget.reserve(MIB, Duration.ZERO);
        CallBudget.Refused refused = assertThrows(CallBudget.Refused.class, () -> call.admit(work(budget.largestCall())));
        assertFalse(refused.fitsLater(), "413: no budget of this heap holds it");
        assertTrue(refused.getMessage().contains("MiB of heap"), refused.getMessage());
        assertSame(refused, call.refusal());
        assertSame(refused, assertThrows(CallBudget.Refused.class, () -> call.claim(1)), "every later claim is refused too");
        call.close();
    }

    @Test
    void claimsBeyondWhatACallMayHoldBesideItsWorkAreRefusedForGood() throws InterruptedException {
        MemoryBudget.Reservation call = budget.reserve(MIB, Duration.ZERO);
        call.admit(work(MIB));
        long room = budget.largestCall() - MemoryBudget.upFront(work(MIB));
        call.claim(room / 2);
        CallBudget.Refused refused = assertThrows(CallBudget.Refused.class, () -> call.claim(room / 2 + 2));
        assertFalse(refused.fitsLater(), "the work and the claims together are more than any call may hold");
        call.close();
    }

    @Test
    void aClaimTheBudgetHasNoRoomForNowIsRefusedForNowAndSticks() throws InterruptedException {
        MemoryBudget.Reservation other = budget.reserve(MIB, Duration.ZERO);
        assertTrue(other.work(budget.largestCall() - 8 * MIB, Duration.ZERO));
        MemoryBudget.Reservation call = budget.reserve(MIB, Duration.ZERO);
        call.admit(work(MIB));
        CallBudget.Refused refused = assertThrows(CallBudget.Refused.class, () -> call.claim(16 * MIB));
        assertTrue(refused.fitsLater(), "503: the working share is spent by another call");
        other.close();
        assertSame(refused, assertThrows(CallBudget.Refused.class, () -> call.claim(1)), "a refusal sticks even once there is room");
        call.close();
        assertEquals(200 * MIB, budget.available());
    }

    @Test
    void aCallAloneWhoseClaimsOutgrowTheWorkingShareIsRefusedForGoodWhereverTheLastClaimFalls() throws InterruptedException {
        for (long claim = 1000; claim < 3100; claim += 37) {
            MemoryBudget.Reservation call = budget.reserve(MIB, Duration.ZERO);
            call.admit(work(MIB + claim));
            CallBudget.Refused refused = null;
            while (refused == null) {
                try {
                    call.claim(claim);
                } catch (CallBudget.Refused e) {
                    refused = e;
                }
            }
            assertFalse(refused.fitsLater(), "alone, claims of " + claim + " bytes never fit: 413, not 503 (" + refused.getMessage() + ")");
            call.close();
            assertEquals(200 * MIB, budget.available());
        }
    }

    @Test
    void aCallWhoseWorkIsLargeNeverWaitsForTheWorkingShareInTheSmallShare() throws InterruptedException {
        MemoryBudget.Reservation storm = budget.reserve(MIB, Duration.ZERO);
        assertTrue(storm.work(budget.largestCall(), Duration.ZERO), "the working share is spent");
        List<MemoryBudget.Reservation> large = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            MemoryBudget.Reservation call = budget.reserve(900 * 1024, Duration.ZERO);
            assertNotNull(call);
            large.add(call);
        }
        for (MemoryBudget.Reservation call : large) {
            assertFalse(call.work(5 * MIB, Duration.ZERO), "a body under 1 MiB whose work is large waits for the working share");
        }
        MemoryBudget.Reservation small = budget.reserve(10 * 1024, Duration.ZERO);
        assertNotNull(small);
        assertTrue(small.work(700 * 1024, Duration.ZERO), "and a small call still works in the small share, at once");
        small.close();
        large.forEach(MemoryBudget.Reservation::close);
        storm.close();
        assertEquals(200 * MIB, budget.available());
    }
}
