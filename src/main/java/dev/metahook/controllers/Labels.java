package dev.metahook.controllers;

import java.util.Map;

/** The labels every child of a reference controller carries, and the subset that selects its pods. */
public final class Labels {
    private Labels() {
    }

    /** {@code app.kubernetes.io/name} and {@code instance}: selectors and pod templates. */
    public static Map<String, String> selector(String app, String instance) {
        return Map.of("app.kubernetes.io/name", app, "app.kubernetes.io/instance", instance);
    }

    /** The selector labels plus {@code app.kubernetes.io/managed-by}: a child's own metadata. */
    public static Map<String, String> common(String app, String instance) {
        return Map.of("app.kubernetes.io/name", app, "app.kubernetes.io/instance", instance,
                "app.kubernetes.io/managed-by", "metahook");
    }
}
