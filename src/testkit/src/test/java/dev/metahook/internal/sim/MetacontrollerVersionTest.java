package dev.metahook.internal.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The Metacontroller releases check models, and where the rolling update's lookup by name began. */
class MetacontrollerVersionTest {
    @Test
    void readsAReleaseWithOrWithoutItsV() {
        assertEquals(new MetacontrollerVersion(4, 17, 2), MetacontrollerVersion.parse("v4.17.2"));
        assertEquals("v1.5.14", MetacontrollerVersion.parse("1.5.14").toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"v1.4.8", "v4.17.3", "v5.0.0", "4.17", "latest"})
    void refusesWhatIsNoSupportedRelease(String text) {
        assertThrows(IllegalArgumentException.class, () -> MetacontrollerVersion.parse(text));
    }

    /** Read at the tags: v4.10.2's claimChildren builds a RelativeObjectMap (keyed by name), v4.10.3's a UniformObjectMap. */
    @Test
    void theLookupByNameStallsRolloutsFromV4103() {
        assertFalse(MetacontrollerVersion.parse("v1.5.14").stallsNamespacedRollouts());
        assertFalse(MetacontrollerVersion.parse("v4.10.2").stallsNamespacedRollouts());
        assertTrue(MetacontrollerVersion.parse("v4.10.3").stallsNamespacedRollouts());
        assertTrue(MetacontrollerVersion.parse("v4.17.2").stallsNamespacedRollouts());
        assertTrue(MetacontrollerVersion.parse("v4.9.0").compareTo(MetacontrollerVersion.parse("v4.10.0")) < 0);
    }
}
