package dev.metahook.api;

import java.util.Locale;

/** The hooks Metacontroller calls, named as they appear in the route ({@code /webapp/sync}). */
public enum Hook {
    SYNC, FINALIZE, CUSTOMIZE;

    /** The hook a route segment names, or null. */
    public static Hook fromSegment(String segment) {
        for (Hook hook : values()) {
            if (hook.segment().equals(segment)) {
                return hook;
            }
        }
        return null;
    }

    /** The route segment that names this hook: {@code sync}, {@code finalize} or {@code customize}. */
    public String segment() {
        return name().toLowerCase(Locale.ROOT);
    }
}
