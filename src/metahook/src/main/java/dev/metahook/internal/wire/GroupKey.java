package dev.metahook.internal.wire;

import io.fabric8.kubernetes.api.Pluralize;
import java.util.Locale;

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
     * The resource name of a kind, pluralized the way the Kubernetes model does it (fabric8's
     * {@link Pluralize}, which knows the irregular and uncountable kinds: {@code Endpoints} stays
     * {@code endpoints}, {@code Gateway} is {@code gateways}, {@code NetworkPolicy} is
     * {@code networkpolicies}): the declared resource of every built-in kind and of a CRD that keeps the
     * default plural. Only API discovery knows a CRD's chosen plural, so this is still a guess for those.
     */
    public static String guessResource(String kind) {
        return Pluralize.toPlural(kind.toLowerCase(Locale.ROOT));
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
