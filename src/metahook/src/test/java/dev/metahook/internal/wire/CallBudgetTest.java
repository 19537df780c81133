package dev.metahook.internal.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ConfigMap;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Decoding admits a request's work once its body is scanned; each observed object claims its cost once, when first built. */
class CallBudgetTest {
    private static final String A = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\",\"namespace\":\"ns\"},\"data\":{\"k\":\"v\"}}";
    private static final String B = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"b\",\"namespace\":\"ns\"},\"data\":{\"k\":\"vvvv\"}}";
    private static final byte[] BODY = ("{\"controller\":{},\"parent\":{\"apiVersion\":\"x/v1\",\"kind\":\"P\",\"metadata\":{\"name\":\"p\",\"namespace\":\"ns\"}},"
            + "\"children\":{\"ConfigMap.v1\":{\"a\":" + A + ",\"b\":" + B + "}}}").getBytes(StandardCharsets.UTF_8);

    /** A budget that records what it is asked, admits any work, and holds {@code allowed} bytes of claims; its refusal sticks. */
    private static final class Recording implements CallBudget {
        final List<Work> admitted = new ArrayList<>();
        final List<Long> claims = new ArrayList<>();
        private final long allowed;
        private final boolean refuseWork;
        private Refused refusal;

        Recording(long allowed, boolean refuseWork) {
            this.allowed = allowed;
            this.refuseWork = refuseWork;
        }

        @Override
        public void admit(Work work) {
            admitted.add(work);
            if (refuseWork) {
                throw refusal = Refused.later(work.bodyBytes());
            }
        }

        @Override
        public long costOf(JsonCensus object) {
            return object.treeBytes();
        }

        @Override
        public void claim(long bytes) {
            if (refusal != null) {
                throw refusal;
            }
            if (claims.stream().mapToLong(Long::longValue).sum() + bytes > allowed) {
                throw refusal = Refused.claimLater(bytes);
            }
            claims.add(bytes);
        }

        @Override
        public Refused refusal() {
            return refusal;
        }
    }

    private static ObservedObject child(CompositeRequest request, String key) {
        return request.children().entries(new GroupKey("ConfigMap", "v1")).get(key);
    }

    @Test
    void readingAnObjectClaimsItsCostOnceAndAnUnreadOneClaimsNothing() throws Exception {
        Recording budget = new Recording(Long.MAX_VALUE, false);
        CompositeRequest request = CompositeRequest.read(BODY, budget);
        assertTrue(budget.claims.isEmpty(), "reading the request builds no observed object");
        ObservedObject a = child(request, "a");
        assertEquals("a", a.read(ConfigMap.class).getMetadata().getName());
        a.tree();
        a.summary();
        assertEquals(List.of(ReferenceCensus.of(A.getBytes(StandardCharsets.UTF_8)).treeBytes()), budget.claims, "one claim, of a's own cost");
        assertEquals("b", child(request, "b").name(), "the key says the name: nothing is built");
        assertEquals(1, budget.claims.size());
    }

    @Test
    void anObjectTheBudgetRefusedIsNeverBuiltAndTheRefusalIsTheBudgets() {
        long costOfA = ReferenceCensus.of(A.getBytes(StandardCharsets.UTF_8)).treeBytes();
        Recording budget = new Recording(costOfA, false);
        CompositeRequest request = CompositeRequest.read(BODY, budget);
        child(request, "a").tree();
        CallBudget.Refused refused = assertThrows(CallBudget.Refused.class, () -> child(request, "b").tree());
        assertTrue(refused.fitsLater(), "the budget said no for now; the call could fit later");
        assertThrows(CallBudget.Refused.class, () -> child(request, "b").summary(), "b is still not built");
        assertSame(refused, budget.refusal());
        assertEquals(1, budget.claims.size());
    }

    @Test
    void theWorkIsAdmittedOnceTheBodyIsScannedAndBeforeAnythingIsBuilt() {
        Recording budget = new Recording(Long.MAX_VALUE, false);
        CompositeRequest request = CompositeRequest.read(BODY, budget);
        assertEquals(1, budget.admitted.size());
        CallBudget.Work work = budget.admitted.get(0);
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
        Recording budget = new Recording(Long.MAX_VALUE, false);
        byte[] broken = new String(BODY, StandardCharsets.UTF_8).replace("\"vvvv\"", "\"vv\\q\"").getBytes(StandardCharsets.UTF_8);
        assertThrows(MalformedRequestException.class, () -> CompositeRequest.read(broken, budget));
        assertTrue(budget.admitted.isEmpty(), "a bad escape in the last child is found by the scan, before any tree is built");
    }

    @Test
    void workTheBudgetCannotHoldIsRefusedAndNothingIsBuilt() {
        Recording budget = new Recording(0, true);
        CallBudget.Refused refused = assertThrows(CallBudget.Refused.class, () -> CompositeRequest.read(BODY, budget));
        assertTrue(refused.fitsLater());
        assertTrue(budget.claims.isEmpty(), "no object was claimed after the work was refused");
    }

    @Test
    void theUnlimitedBudgetCountsAndRefusesNothing() {
        CompositeRequest request = CompositeRequest.read(BODY, CallBudget.UNLIMITED);
        assertEquals("vvvv", child(request, "b").tree().at("/data/k").asText());
        assertEquals(0, CallBudget.UNLIMITED.costOf(ReferenceCensus.of(A.getBytes(StandardCharsets.UTF_8))));
        assertNull(CallBudget.UNLIMITED.refusal());
        assertFalse(CallBudget.Refused.never(1, "no").fitsLater());
    }
}
