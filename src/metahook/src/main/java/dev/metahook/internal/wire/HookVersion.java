package dev.metahook.internal.wire;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The hook version a controller declares per hook ({@code hooks.sync.version}). It decides the object
 * keys: v1 keys are relative to the parent's scope, v2 keys are {@code namespace/name} for every
 * namespaced object.
 */
public enum HookVersion {
    V1, V2;

    /** The version of one hook as the controller object declares it; v1 when absent, as the CRD defaults it. */
    public static HookVersion declared(JsonNode controller, String hook) {
        String text = controller.path("spec").path("hooks").path(hook).path("version").asText("v1");
        return "v2".equals(text) ? V2 : V1;
    }

    /** The key of an object in a map of this version, for a parent of the given scope. */
    public String key(boolean parentNamespaced, String objectNamespace, String name) {
        boolean qualified = objectNamespace != null && !objectNamespace.isEmpty()
                && (this == V2 || !parentNamespaced);
        return qualified ? objectNamespace + "/" + name : name;
    }
}
