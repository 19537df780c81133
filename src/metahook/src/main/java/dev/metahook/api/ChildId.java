package dev.metahook.api;

import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * Identifies a child the way Metacontroller matches observed and desired children: by apiVersion,
 * kind, namespace and name. An empty namespace stands for the parent's.
 */
public record ChildId(String apiVersion, String kind, String namespace, String name) {

    public ChildId {
        namespace = namespace == null ? "" : namespace;
    }

    public static ChildId of(HasMetadata child) {
        String namespace = child.getMetadata() == null ? null : child.getMetadata().getNamespace();
        String name = child.getMetadata() == null ? null : child.getMetadata().getName();
        return new ChildId(child.getApiVersion(), child.getKind(), namespace, name);
    }

    /** The same id with the parent's namespace filled in where it was left empty. */
    public ChildId inNamespace(String parentNamespace) {
        return namespace.isEmpty() && parentNamespace != null ? new ChildId(apiVersion, kind, parentNamespace, name) : this;
    }

    @Override
    public String toString() {
        return kind + "." + apiVersion + " " + (namespace.isEmpty() ? "" : namespace + "/") + name;
    }
}
