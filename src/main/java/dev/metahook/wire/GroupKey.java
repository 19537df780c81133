package dev.metahook.wire;

/**
 * The key of one group in an object map: {@code <Kind>.<apiVersion>}, e.g. {@code Deployment.apps/v1}
 * or {@code Service.v1}. A kind never contains a dot, so the key splits at the first one.
 */
public record GroupKey(String kind, String apiVersion) implements Comparable<GroupKey> {

    public GroupKey {
        if (kind.isEmpty() || kind.indexOf('.') >= 0 || apiVersion.isEmpty()) {
            throw new IllegalArgumentException("not a group key: kind '" + kind + "', apiVersion '" + apiVersion + "'");
        }
    }

    /** Parses {@code Kind.apiVersion}; null when the text is not such a key. */
    public static GroupKey parse(String text) {
        int dot = text.indexOf('.');
        if (dot <= 0 || dot == text.length() - 1) {
            return null;
        }
        return new GroupKey(text.substring(0, dot), text.substring(dot + 1));
    }

    /** The API group, empty for the core group. */
    public String group() {
        int slash = apiVersion.indexOf('/');
        return slash < 0 ? "" : apiVersion.substring(0, slash);
    }

    /**
     * The resource name Kubernetes guesses for a kind (lower case; {@code s} gets {@code es}, {@code y}
     * becomes {@code ies}, else {@code s}): the declared resource when a CRD keeps the default.
     */
    public static String guessResource(String kind) {
        String singular = kind.toLowerCase(java.util.Locale.ROOT);
        if (singular.endsWith("s")) {
            return singular + "es";
        }
        return singular.endsWith("y") ? singular.substring(0, singular.length() - 1) + "ies" : singular + "s";
    }

    @Override
    public int compareTo(GroupKey other) {
        return CanonicalJson.CODE_POINT_ORDER.compare(toString(), other.toString());
    }

    @Override
    public String toString() {
        return kind + "." + apiVersion;
    }
}
