package dev.metahook.internal.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.internal.engine.LastAppliedBase.Fits;
import dev.metahook.internal.engine.LastAppliedBase.TypedForms;
import dev.metahook.internal.engine.LastAppliedBase.TypedKey;
import dev.metahook.testing.Fixtures;
import dev.metahook.internal.wire.CompositeRequest;
import dev.metahook.internal.wire.Json;
import dev.metahook.internal.wire.ObservedObject;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Service;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** The bounded stores behind {@link LastAppliedBase} (typed round trips, fitted answers): what they keep, and that keeping changes no answer. */
class LastAppliedBaseTest {
    private static ObjectNode service(String namespace, String name) {
        String json = "{\"apiVersion\":\"v1\",\"kind\":\"Service\",\"metadata\":{\"name\":\"" + name + "\",\"namespace\":\"" + namespace
                + "\",\"creationTimestamp\":null},\"spec\":{\"ports\":[{\"port\":80,\"targetPort\":8080}]},\"unknownField\":1.50}";
        return (ObjectNode) Json.parse(json.getBytes(StandardCharsets.UTF_8));
    }

    private static TypedKey key(Class<?> type, ObjectNode base, String namespace) {
        return new TypedKey(type, base.toString(), namespace, namespace);
    }

    @Test
    void aKeptRoundTripIsTheAnswerAFreshOneGives() {
        ObjectNode base = service("shop", "web");
        TypedForms forms = new TypedForms();
        ObjectNode miss = forms.of(key(Service.class, base, "shop"), base);
        ObjectNode hit = forms.of(key(Service.class, base, "shop"), base.deepCopy());
        assertSame(miss, hit, "the second call reads the kept round trip");
        assertEquals(new TypedForms().of(key(Service.class, base, "shop"), base), hit);
        assertEquals(1, forms.size());
        assertFalse(hit.path("metadata").has("creationTimestamp"), "a Service's round trip drops the null its model cannot hold: " + hit);
        assertEquals(1.5, hit.path("unknownField").doubleValue());
        assertEquals(8080, hit.at("/spec/ports/0/targetPort").intValue());
    }

    @Test
    void typesAndNamespacesAreKeptApart() {
        TypedForms forms = new TypedForms();
        ObjectNode words = service("shop", "words");
        ((ObjectNode) words.at("/spec/ports/0")).put("port", "eighty");
        assertNull(forms.of(key(Service.class, words, "shop"), words), "a Service's port is a number");
        ObjectNode generic = forms.of(key(GenericKubernetesResource.class, words, "shop"), words);
        assertEquals("eighty", generic.at("/spec/ports/0/port").textValue(), "a generic resource reads any spec: " + generic);
        ObjectNode shop = service("shop", "web");
        ObjectNode lab = service("lab", "web");
        ObjectNode labService = forms.of(new TypedKey(Service.class, shop.toString(), "lab", "lab"), lab);
        assertEquals("lab", labService.at("/metadata/namespace").textValue(), "same annotation text, other namespace: its own round trip");
        assertEquals("shop", forms.of(key(Service.class, shop, "shop"), shop).at("/metadata/namespace").textValue());
        assertEquals(4, forms.size());
    }

    @Test
    void anAnnotationItsTypeCannotReadIsRememberedAsUnreadable() {
        TypedForms forms = new TypedForms();
        ObjectNode base = service("shop", "web");
        base.withObjectProperty("data").put("key", 3);
        base.put("kind", "ConfigMap");
        assertNull(forms.of(key(ConfigMap.class, base, "shop"), base));
        assertNull(forms.of(key(ConfigMap.class, base, "shop"), base));
        assertEquals(1, forms.size());
    }

    @Test
    void theStoreNeverHoldsMoreThanItsBound() {
        TypedForms forms = new TypedForms();
        for (int i = 0; i < TypedForms.CAPACITY * 2 + 7; i++) {
            ObjectNode base = service("shop", "web-" + i);
            assertEquals("web-" + i, forms.of(key(Service.class, base, "shop"), base).at("/metadata/name").textValue());
            assertTrue(forms.size() <= TypedForms.CAPACITY, "kept " + forms.size());
        }
        assertTrue(forms.size() > 0);
    }

    @Test
    void aLargeAnnotationIsConvertedButNeverKept() {
        TypedForms forms = new TypedForms();
        ObjectNode base = service("shop", "web");
        base.withObjectProperty("metadata").withObjectProperty("annotations").put("big", "x".repeat((int) (TypedForms.CAPACITY_BYTES / 8) + 1));
        ObjectNode typed = forms.of(key(Service.class, base, "shop"), base);
        assertEquals(base.at("/metadata/annotations/big"), typed.at("/metadata/annotations/big"));
        assertEquals(0, forms.size());
    }

    @Test
    void theHeapBudgetStartsTheStoreOver() {
        TypedForms forms = new TypedForms();
        // Each entry weighs its annotation twice (kept as the key, at most two bytes a character) and its typed tree once.
        String padding = "y".repeat((int) (TypedForms.CAPACITY_BYTES / 8 / 3) - 2000);
        for (int i = 0; i < 9; i++) {
            ObjectNode base = service("shop", "web-" + i);
            base.withObjectProperty("metadata").withObjectProperty("annotations").put("pad", padding);
            forms.of(key(Service.class, base, "shop"), base);
            assertTrue(forms.weight() <= TypedForms.CAPACITY_BYTES, forms.weight() + " bytes kept");
        }
        assertTrue(forms.size() > 0 && forms.size() < 9, "eight large annotations fill the budget; the ninth starts over (kept " + forms.size() + ")");
    }

    @Test
    void anAnnotationOfManyEmptyObjectsIsWeighedByItsTreeNotItsLength() {
        TypedForms forms = new TypedForms();
        ObjectNode base = service("shop", "web");
        for (int i = 0; i < 2_000; i++) {
            base.withObjectProperty("spec").withObjectProperty("a" + i);
        }
        ObjectNode generic = forms.of(key(GenericKubernetesResource.class, base, "shop"), base);
        assertEquals(2_001, generic.at("/spec").size());
        assertEquals(1, forms.size());
        assertTrue(forms.weight() > 5 * base.toString().length(), forms.weight() + " for an annotation of " + base.toString().length());
    }

    private static List<ObservedObject> observed() {
        return CompositeRequest.read(Fixtures.bytes("captured/v1.5.14-webapp-sync-observed.request.json")).children().entries();
    }

    /** A fitting that counts its calls and marks what it answers. */
    private static Supplier<ObjectNode> countedFit(ObjectNode desired, AtomicInteger calls) {
        return () -> {
            calls.incrementAndGet();
            return desired.deepCopy().put("fitted", true);
        };
    }

    @Test
    void aFittedAnswerIsKeptForTheSameChildAndTheSameObservedBytes() {
        Fits fits = new Fits();
        ObjectNode desired = service("shop", "web");
        TypedKey key = key(Service.class, desired, "shop");
        AtomicInteger fitted = new AtomicInteger();
        Supplier<ObjectNode> fit = countedFit(desired, fitted);
        ObjectNode first = fits.of(key, desired, observed().get(0).bytes(), fit);
        ObjectNode second = fits.of(key, desired.deepCopy(), observed().get(0).bytes(), fit);
        assertEquals(1, fitted.get(), "the same child over the same observed bytes, from another request body, is fitted once");
        assertEquals(first, second);
        assertNotSame(first, second, "each call gets a tree of its own");
        second.put("changedByTheCaller", 1);
        assertFalse(fits.of(key, desired, observed().get(0).bytes(), fit).has("changedByTheCaller"), "a caller's change is not kept");
        assertEquals(1, fits.size());
    }

    @Test
    void anotherChildOrOtherObservedBytesAreFittedAgain() {
        Fits fits = new Fits();
        ObjectNode desired = service("shop", "web");
        TypedKey key = key(Service.class, desired, "shop");
        AtomicInteger fitted = new AtomicInteger();
        Supplier<ObjectNode> fit = countedFit(desired, fitted);
        List<ObservedObject> observed = observed();
        fits.of(key, desired, observed.get(0).bytes(), fit);
        fits.of(key, desired, observed.get(1).bytes(), fit);
        ObjectNode scaled = desired.deepCopy();
        ((ObjectNode) scaled.at("/spec/ports/0")).put("port", 81);
        fits.of(key, scaled, observed.get(0).bytes(), fit);
        fits.of(key(Service.class, desired, "lab"), desired, observed.get(0).bytes(), fit);
        assertEquals(4, fitted.get());
        assertEquals(4, fits.size());
    }

    @Test
    void anAnswerThatIsTheChildItselfIsTheCallersChild() {
        Fits fits = new Fits();
        ObjectNode desired = service("shop", "web");
        TypedKey key = key(Service.class, desired, "shop");
        ObservedObject.Bytes bytes = observed().get(0).bytes();
        fits.of(key, desired, bytes, () -> desired);
        ObjectNode again = desired.deepCopy();
        assertSame(again, fits.of(key, again, bytes, () -> {
            throw new AssertionError("kept");
        }));
    }

    @Test
    void aChildWhoseTreeOutweighsAnEighthOfTheBudgetIsFittedButNeverKept() {
        Fits fits = new Fits();
        ObjectNode desired = service("shop", "web");
        for (int i = 0; i < 20_000; i++) {
            desired.withObjectProperty("spec").withObjectProperty("selector").putObject("k" + i);
        }
        AtomicInteger fitted = new AtomicInteger();
        ObservedObject.Bytes bytes = observed().get(0).bytes();
        fits.of(key(Service.class, service("shop", "web"), "shop"), desired, bytes, countedFit(desired, fitted));
        fits.of(key(Service.class, service("shop", "web"), "shop"), desired, bytes, countedFit(desired, fitted));
        assertEquals(2, fitted.get(), "a short text of 20,000 empty objects weighs about 4 MiB as trees: fitted every time");
        assertEquals(0, fits.size());
        assertEquals(0, fits.weight());
    }

    @Test
    void fittedAnswersStayBounded() {
        Fits fits = new Fits();
        ObservedObject.Bytes bytes = observed().get(0).bytes();
        for (int i = 0; i < Fits.CAPACITY * 2 + 7; i++) {
            ObjectNode desired = service("shop", "web-" + i);
            fits.of(key(Service.class, desired, "shop"), desired, bytes, desired::deepCopy);
            assertTrue(fits.size() <= Fits.CAPACITY, "kept " + fits.size());
        }
    }
}
