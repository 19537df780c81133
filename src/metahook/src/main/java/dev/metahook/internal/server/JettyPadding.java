package dev.metahook.internal.server;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;

/**
 * Tells Jetty how many references fill a cache line, which it pads its thread pool's queue with. Left
 * to itself, Jetty works that out the first time a thread pool is made by asking the platform MBean
 * server whether the JVM compresses its references, and making that server registers every platform
 * MBean (JMX, {@code java.util.logging}, the JFR commands): about 200 classes and a share of the time
 * before ready, for one flag. The flag is read here without the MBean server, and Jetty gets the same
 * number it would have computed. A value the application set ({@value #REFERENCES_PER_CACHE_LINE}) is kept.
 */
final class JettyPadding {
    static final String REFERENCES_PER_CACHE_LINE = "org.eclipse.jetty.util.referencesPerCacheLine";
    private static final String CACHE_LINE_BYTES = "org.eclipse.jetty.util.cacheLineBytes";

    private JettyPadding() {
    }

    /** Sets {@value #REFERENCES_PER_CACHE_LINE} unless it is set or the JVM cannot say whether it compresses references. */
    static void configure() {
        if (System.getProperty(REFERENCES_PER_CACHE_LINE) != null) {
            return;
        }
        try {
            boolean compressed = Boolean.parseBoolean(ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
                    .getVMOption("UseCompressedOops").getValue());
            System.setProperty(REFERENCES_PER_CACHE_LINE, Integer.toString(referencesPerCacheLine(cacheLineBytes(), compressed)));
        } catch (RuntimeException e) {
            // Not a HotSpot JVM, or the flag is unknown to it: Jetty works the number out itself.
        }
    }

    /** Jetty's own rule: a reference is an int when compressed, else a long. */
    static int referencesPerCacheLine(int cacheLineBytes, boolean compressed) {
        return compressed ? cacheLineBytes >> 2 : cacheLineBytes >> 3;
    }

    /** The cache line Jetty assumes: its own property, else 64 bytes. */
    private static int cacheLineBytes() {
        try {
            return Integer.parseInt(System.getProperty(CACHE_LINE_BYTES, "64"));
        } catch (NumberFormatException e) {
            return 64;
        }
    }
}
