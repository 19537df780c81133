package dev.metahook.api;

import java.util.Locale;

/** The hooks Metacontroller calls, named as they appear in the route ({@code /webapp/sync}). */
public enum Hook {
    SYNC, FINALIZE, CUSTOMIZE;

    /** The hook a route segment names, or null. */
    public static Hook fromPath(String segment) {
        for (Hook hook : values()) {
            if (hook.path().equals(segment)) {
                return hook;
            }
        }
        return null;
    }

    public String path() {
        return name().toLowerCase(Locale.ROOT);
    }
}
