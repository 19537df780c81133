package dev.metahook.controllers;

import io.fabric8.kubernetes.api.model.ObjectMeta;
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

    /** A child's (or a pod template's) metadata: a name and namespace where given, and these labels. */
    public static ObjectMeta objectMeta(String name, String namespace, Map<String, String> labels) {
        ObjectMeta metadata = new ObjectMeta();
        metadata.setName(name);
        metadata.setNamespace(namespace);
        metadata.setLabels(labels);
        return metadata;
    }
}
