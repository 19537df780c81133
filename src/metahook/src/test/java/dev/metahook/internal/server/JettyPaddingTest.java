package dev.metahook.internal.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.management.ManagementFactory;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Jetty gets the padding it would have computed through the platform MBean server, without that server. */
class JettyPaddingTest {
    private String before;

    @BeforeEach
    void clear() {
        before = System.clearProperty(JettyPadding.REFERENCES_PER_CACHE_LINE);
    }

    @AfterEach
    void restore() {
        if (before == null) {
            System.clearProperty(JettyPadding.REFERENCES_PER_CACHE_LINE);
        } else {
            System.setProperty(JettyPadding.REFERENCES_PER_CACHE_LINE, before);
        }
    }

    @Test
    void setsTheNumberJettyComputesFromTheMBeanServer() throws Exception {
        JettyPadding.configure();
        // Jetty's own way (MemoryUtils): the HotSpot diagnostic MBean's UseCompressedOops, through the MBean server.
        CompositeData option = (CompositeData) ManagementFactory.getPlatformMBeanServer().invoke(
                ObjectName.getInstance("com.sun.management:type=HotSpotDiagnostic"), "getVMOption",
                new Object[] {"UseCompressedOops"}, new String[] {String.class.getName()});
        int expected = Boolean.parseBoolean((String) option.get("value")) ? 64 / 4 : 64 / 8;
        assertEquals(Integer.toString(expected), System.getProperty(JettyPadding.REFERENCES_PER_CACHE_LINE));
    }

    @Test
    void aReferenceIsAnIntWhenCompressedElseALong() {
        assertEquals(16, JettyPadding.referencesPerCacheLine(64, true));
        assertEquals(8, JettyPadding.referencesPerCacheLine(64, false));
        assertEquals(32, JettyPadding.referencesPerCacheLine(128, true));
    }

    @Test
    void keepsAValueTheApplicationSet() {
        System.setProperty(JettyPadding.REFERENCES_PER_CACHE_LINE, "3");
        JettyPadding.configure();
        assertEquals("3", System.getProperty(JettyPadding.REFERENCES_PER_CACHE_LINE));
    }
}
