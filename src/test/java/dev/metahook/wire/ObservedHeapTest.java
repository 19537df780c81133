package dev.metahook.wire;

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

/** Each observed object claims its cost once, when first built; a refused claim sticks. */
class ObservedHeapTest {
    private static final String A = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\",\"namespace\":\"ns\"},\"data\":{\"k\":\"v\"}}";
    private static final String B = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"b\",\"namespace\":\"ns\"},\"data\":{\"k\":\"vvvv\"}}";
    private static final byte[] BODY = ("{\"controller\":{},\"parent\":{\"apiVersion\":\"x/v1\",\"kind\":\"P\",\"metadata\":{\"name\":\"p\",\"namespace\":\"ns\"}},"
            + "\"children\":{\"ConfigMap.v1\":{\"a\":" + A + ",\"b\":" + B + "}}}").getBytes(StandardCharsets.UTF_8);

    private final List<Long> taken = new ArrayList<>();

    private CompositeRequest read(long allowed) {
        JsonCensus.Request census = JsonCensus.ofRequest(BODY, JsonCensus::treeBytes);
        ObservedHeap heap = ObservedHeap.of(census.observed(), bytes -> {
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
        JsonCensus.Request census = JsonCensus.ofRequest(BODY, JsonCensus::treeBytes);
        ObservedHeap heap = ObservedHeap.of(census.observed(), bytes -> true, 10);
        CompositeRequest request = CompositeRequest.read(BODY, heap);
        ObservedHeap.HeapRefused refused = assertThrows(ObservedHeap.HeapRefused.class, () -> child(request, "a").tree());
        assertFalse(refused.fitsLater());
        assertTrue(heap.refused());
        assertSame(refused, heap.refusal());
    }
}
