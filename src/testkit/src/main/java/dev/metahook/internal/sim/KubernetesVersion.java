package dev.metahook.internal.sim;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A minor release of Kubernetes (1.x), which decides how the simulated API server stores objects
 * ({@link StorageChange}). {@code check} supports {@link #OLDEST} to {@link #NEWEST}: what the simulator models
 * was read from the source of each and measured on the newest.
 */
public record KubernetesVersion(int minor) implements Comparable<KubernetesVersion> {
    public static final KubernetesVersion OLDEST = new KubernetesVersion(29);
    public static final KubernetesVersion NEWEST = new KubernetesVersion(37);
    private static final Pattern VERSION = Pattern.compile("v?1\\.(\\d{1,3})(\\.\\d+)?");

    /** {@code 1.32}, {@code v1.32} or {@code 1.32.4}; a minor outside the supported ones is refused. */
    public static KubernetesVersion parse(String text) {
        Matcher matcher = VERSION.matcher(text.strip());
        if (!matcher.matches()) {
            throw new IllegalArgumentException("not a Kubernetes version such as 1.32: '" + text + "'");
        }
        KubernetesVersion version = new KubernetesVersion(Integer.parseInt(matcher.group(1)));
        if (version.compareTo(OLDEST) < 0 || version.compareTo(NEWEST) > 0) {
            throw new IllegalArgumentException("Kubernetes " + version + " is not one check models: " + OLDEST + " to " + NEWEST);
        }
        return version;
    }

    /** Whether the API server of this minor stores objects the way {@code change} made it. */
    public boolean has(StorageChange change) {
        return minor >= change.since();
    }

    /**
     * The supported minors cut where a {@link StorageChange} holds from: within one span the simulated API server
     * stores every object alike, so checking one minor of it checks them all. Oldest first.
     */
    public static List<Span> spans() {
        List<Integer> cuts = Arrays.stream(StorageChange.values()).map(StorageChange::since)
                .filter(since -> since > OLDEST.minor && since <= NEWEST.minor).distinct().sorted().toList();
        List<Span> spans = new ArrayList<>();
        int first = OLDEST.minor;
        for (int cut : cuts) {
            spans.add(new Span(new KubernetesVersion(first), new KubernetesVersion(cut - 1)));
            first = cut;
        }
        spans.add(new Span(new KubernetesVersion(first), NEWEST));
        return List.copyOf(spans);
    }

    @Override
    public int compareTo(KubernetesVersion other) {
        return Integer.compare(minor, other.minor);
    }

    @Override
    public String toString() {
        return "1." + minor;
    }

    /** Minors {@code first} to {@code last}, stored alike. */
    public record Span(KubernetesVersion first, KubernetesVersion last) {
        /** One minor alone. */
        public static Span of(KubernetesVersion version) {
            return new Span(version, version);
        }

        /**
         * The minor a check of the span runs on: the oldest supported for the span that holds it, else the span's
         * newest, so that the default check runs on the oldest and the newest supported minor, and on the newest of
         * each span between.
         */
        public KubernetesVersion checkedOn() {
            return first.equals(OLDEST) ? first : last;
        }

        @Override
        public String toString() {
            return first.equals(last) ? first.toString() : first + "-" + last;
        }
    }
}
