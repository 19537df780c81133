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

    /** Read at the tags: v1.5.5's metacontroller.go records no CreateError, v1.5.6's does (and its controller.go a SyncError). */
    @Test
    void errorsBecomeEventsFromV156() {
        assertFalse(MetacontrollerVersion.parse("v1.5.5").recordsErrorEvents());
        assertTrue(MetacontrollerVersion.parse("v1.5.6").recordsErrorEvents());
        assertTrue(MetacontrollerVersion.parse("v4.17.2").recordsErrorEvents());
    }

    /** Read at the tags: v2.6.1 looks the parent up in discovery (dynClient.Resource), v3.0.0 gets its CRD by name. */
    @Test
    void theParentIsReadAsACustomResourceDefinitionFromV300() {
        assertFalse(MetacontrollerVersion.parse("v1.5.0").readsParentDefinition());
        assertFalse(MetacontrollerVersion.parse("v2.6.1").readsParentDefinition());
        assertTrue(MetacontrollerVersion.parse("v3.0.0").readsParentDefinition());
        assertTrue(MetacontrollerVersion.parse("v4.17.2").readsParentDefinition());
    }
}
