package dev.metahook.internal.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ConfigMap;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A request's work is admitted once its body is scanned; each observed object claims its cost once, when first built; a refusal sticks. */
class ObservedHeapTest {
    private static final String A = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\",\"namespace\":\"ns\"},\"data\":{\"k\":\"v\"}}";
    private static final String B = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"b\",\"namespace\":\"ns\"},\"data\":{\"k\":\"vvvv\"}}";
    private static final byte[] BODY = ("{\"controller\":{},\"parent\":{\"apiVersion\":\"x/v1\",\"kind\":\"P\",\"metadata\":{\"name\":\"p\",\"namespace\":\"ns\"}},"
            + "\"children\":{\"ConfigMap.v1\":{\"a\":" + A + ",\"b\":" + B + "}}}").getBytes(StandardCharsets.UTF_8);

    private final List<Long> taken = new ArrayList<>();

    private CompositeRequest read(long allowed) {
        ObservedHeap heap = ObservedHeap.of(work -> 0, JsonCensus::treeBytes, bytes -> {
            if (taken.stream().mapToLong(Long::longValue).sum() + bytes > allowed) {
                return false;
            }
            taken.add(bytes);
            return true;
        }, Long.MAX_VALUE);
        return CompositeRequest.read(BODY, heap);
    }

    private static ObservedObject child(CompositeRequest request, String key) {
        return request.children().entries(new GroupKey("ConfigMap", "v1")).get(key);
    }

    @Test
    void readingAnObjectClaimsItsCostOnceAndAnUnreadOneClaimsNothing() throws Exception {
        CompositeRequest request = read(Long.MAX_VALUE);
        assertTrue(taken.isEmpty(), "reading the request builds no observed object");
        ObservedObject a = child(request, "a");
        assertEquals("a", a.read(ConfigMap.class).getMetadata().getName());
        a.tree();
        a.summary();
        assertEquals(List.of(JsonCensus.of(A.getBytes(StandardCharsets.UTF_8)).treeBytes()), taken, "one claim, of a's own cost");
        assertEquals("b", child(request, "b").name(), "the key says the name: nothing is built");
        assertEquals(1, taken.size());
    }

    @Test
    void aRefusedClaimSticksSoNoLaterObjectCanBeBuilt() {
        long costOfA = JsonCensus.of(A.getBytes(StandardCharsets.UTF_8)).treeBytes();
        CompositeRequest request = read(costOfA);
        child(request, "a").tree();
        ObservedHeap.HeapRefused refused = assertThrows(ObservedHeap.HeapRefused.class, () -> child(request, "b").tree());
        assertTrue(refused.fitsLater(), "the allowance said no for now; the call could fit later");
        assertThrows(ObservedHeap.HeapRefused.class, () -> child(request, "b").summary());
        assertEquals(1, taken.size());
    }

    @Test
    void aClaimBeyondWhatAnyAllowanceHoldsIsRefusedForGood() {
        ObservedHeap heap = ObservedHeap.of(work -> 0, JsonCensus::treeBytes, bytes -> true, 10);
        CompositeRequest request = CompositeRequest.read(BODY, heap);
        ObservedHeap.HeapRefused refused = assertThrows(ObservedHeap.HeapRefused.class, () -> child(request, "a").tree());
        assertFalse(refused.fitsLater());
        assertTrue(heap.refused());
        assertSame(refused, heap.refusal());
    }

    @Test
    void theWorkIsAdmittedOnceTheBodyIsScannedAndBeforeAnythingIsBuilt() {
        List<ObservedHeap.Work> admitted = new ArrayList<>();
        ObservedHeap heap = ObservedHeap.of(work -> {
            admitted.add(work);
            return 0;
        }, JsonCensus::treeBytes, bytes -> true, Long.MAX_VALUE);
        CompositeRequest request = CompositeRequest.read(BODY, heap);
        assertEquals(1, admitted.size());
        ObservedHeap.Work work = admitted.get(0);
        assertEquals(BODY.length, work.bodyBytes());
        assertEquals(2, work.observed());
        assertEquals(1, work.groups());
        assertEquals("\"ConfigMap.v1\"\"a\"\"b\"".length(), work.keyBytes(), "names and keys as the body has them, quotes and all");
        String parent = "{\"apiVersion\":\"x/v1\",\"kind\":\"P\",\"metadata\":{\"name\":\"p\",\"namespace\":\"ns\"}}";
        assertTrue(work.trees().bytes() >= parent.length(), "the parent's tree is in the work");
        assertTrue(work.trees().bytes() < parent.length() + A.length(), "no child's tree is");
        assertEquals("a", child(request, "a").name());
    }

    @Test
    void aBodyThatIsNotJsonToItsEndIsRefusedBeforeItsWorkIsAdmitted() {
        List<ObservedHeap.Work> admitted = new ArrayList<>();
        ObservedHeap heap = ObservedHeap.of(work -> {
            admitted.add(work);
            return 0;
        }, JsonCensus::treeBytes, bytes -> true, Long.MAX_VALUE);
        byte[] broken = new String(BODY, StandardCharsets.UTF_8).replace("\"vvvv\"", "\"vv\\q\"").getBytes(StandardCharsets.UTF_8);
        assertThrows(MalformedRequestException.class, () -> CompositeRequest.read(broken, heap));
        assertTrue(admitted.isEmpty(), "a bad escape in the last child is found by the scan, before any tree is built");
    }

    @Test
    void workTheBudgetCannotHoldIsRefusedAndNothingIsBuilt() {
        ObservedHeap heap = ObservedHeap.of(work -> {
            throw ObservedHeap.HeapRefused.workLater(work.bodyBytes());
        }, JsonCensus::treeBytes, bytes -> {
            throw new AssertionError("no object may be claimed after the work was refused");
        }, Long.MAX_VALUE);
        ObservedHeap.HeapRefused refused = assertThrows(ObservedHeap.HeapRefused.class, () -> CompositeRequest.read(BODY, heap));
        assertTrue(refused.fitsLater());
        assertSame(refused, heap.refusal());
    }

    @Test
    void whatTheAdmissionHeldCountsAgainstWhatTheCallMayEverHold() {
        long costOfA = JsonCensus.of(A.getBytes(StandardCharsets.UTF_8)).treeBytes();
        ObservedHeap heap = ObservedHeap.of(work -> 100, JsonCensus::treeBytes, bytes -> true, 100 + costOfA);
        CompositeRequest request = CompositeRequest.read(BODY, heap);
        child(request, "a").tree();
        ObservedHeap.HeapRefused refused = assertThrows(ObservedHeap.HeapRefused.class, () -> child(request, "b").tree());
        assertFalse(refused.fitsLater(), "a and b together are more than the call may hold beside its admitted work");
    }
}
