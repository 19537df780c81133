package dev.metahook.internal.sim;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Metacontroller release, which decides what of its behaviour the simulator plays where releases differ, each read
 * from its source at the tags on either side of the change. {@code check} supports {@link #OLDEST} to {@link #NEWEST}.
 */
public record MetacontrollerVersion(int major, int minor, int patch) implements Comparable<MetacontrollerVersion> {
    public static final MetacontrollerVersion OLDEST = new MetacontrollerVersion(1, 5, 0);
    public static final MetacontrollerVersion NEWEST = new MetacontrollerVersion(4, 17, 2);
    /** The first release whose rolling update looks observed children up by bare name in a map keyed by namespace/name. */
    static final MetacontrollerVersion ROLLOUT_LOOKUP_BY_NAME = new MetacontrollerVersion(4, 10, 3);
    /** The first release that records a failed start (CreateError) or sync (SyncError) as an event, not in its log alone. */
    static final MetacontrollerVersion ERROR_EVENTS = new MetacontrollerVersion(1, 5, 6);
    /** The first release that reads a CompositeController's parent as a CustomResourceDefinition before it starts the controller. */
    static final MetacontrollerVersion PARENT_DEFINITION = new MetacontrollerVersion(3, 0, 0);
    private static final Pattern VERSION = Pattern.compile("v?(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})");

    /** {@code 4.17.2} or {@code v4.17.2}; a release outside the supported ones is refused. */
    public static MetacontrollerVersion parse(String text) {
        Matcher matcher = VERSION.matcher(text.strip());
        if (!matcher.matches()) {
            throw new IllegalArgumentException("not a Metacontroller release such as v4.17.2: '" + text + "'");
        }
        MetacontrollerVersion version = new MetacontrollerVersion(Integer.parseInt(matcher.group(1)), Integer.parseInt(matcher.group(2)),
                Integer.parseInt(matcher.group(3)));
        if (version.compareTo(OLDEST) < 0 || version.compareTo(NEWEST) > 0) {
            throw new IllegalArgumentException("Metacontroller " + version + " is not one check models: " + OLDEST + " to " + NEWEST);
        }
        return version;
    }

    /**
     * Whether this release stalls the rolling update of namespaced children (v4.10.3 and later, up to the newest):
     * {@code rolling_update.go} looks the children of the latest revision up in the observed children by bare name,
     * while the map they are in ({@code UniformObjectMap}, since the refactor that shipped in v4.10.3) keys a
     * namespaced child by {@code namespace/name}. The first child moved is then never found: the rollout waits for a
     * "missing child" forever. Cluster-scoped children are keyed by name alone and roll.
     */
    public boolean stallsNamespacedRollouts() {
        return compareTo(ROLLOUT_LOOKUP_BY_NAME) >= 0;
    }

    /**
     * Whether this release records a controller it cannot start as a {@code CreateError} event on the controller, and a
     * failed sync as a {@code SyncError} event on the parent (v1.5.6 and later); older ones only log them.
     */
    public boolean recordsErrorEvents() {
        return compareTo(ERROR_EVENTS) >= 0;
    }

    /**
     * Whether this release gets a CompositeController's parent's CustomResourceDefinition, named
     * {@code <resource>.<group>}, and looks in it for the status subresource of the parent's version before it starts
     * the controller (v3.0.0 and later, {@code pkg/controller/composite/metacontroller.go}); older ones look the parent
     * resource up in discovery.
     */
    public boolean readsParentDefinition() {
        return compareTo(PARENT_DEFINITION) >= 0;
    }

    @Override
    public int compareTo(MetacontrollerVersion other) {
        int byMajor = Integer.compare(major, other.major);
        int byMinor = byMajor != 0 ? byMajor : Integer.compare(minor, other.minor);
        return byMinor != 0 ? byMinor : Integer.compare(patch, other.patch);
    }

    @Override
    public String toString() {
        return "v" + major + "." + minor + "." + patch;
    }
}
