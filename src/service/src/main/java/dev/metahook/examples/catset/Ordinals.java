package dev.metahook.examples.catset;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.List;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Names of the form {@code <base>-<ordinal>}, as StatefulSets name their pods and claims. */
final class Ordinals {
    private static final Pattern NAME = Pattern.compile("(.*)-(\\d{1,9})");

    private Ordinals() {
    }

    /** The ordinal in {@code name}, or -1 when the name is not {@code <base>-<number>}. */
    static int of(String base, String name) {
        Matcher matcher = NAME.matcher(name);
        return matcher.matches() && matcher.group(1).equals(base) ? Integer.parseInt(matcher.group(2)) : -1;
    }

    /** The objects named {@code <base>-<ordinal>}, by ordinal. */
    static <T extends HasMetadata> NavigableMap<Integer, T> byOrdinal(String base, List<T> objects) {
        NavigableMap<Integer, T> byOrdinal = new TreeMap<>();
        for (T object : objects) {
            int ordinal = of(base, object.getMetadata().getName());
            if (ordinal >= 0) {
                byOrdinal.put(ordinal, object);
            }
        }
        return byOrdinal;
    }
}
