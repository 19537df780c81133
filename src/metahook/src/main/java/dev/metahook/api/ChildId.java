package dev.metahook.api;

import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * Identifies an object the way Metacontroller matches observed and desired children: by apiVersion,
 * kind, namespace and name.
 *
 * <p>"No namespace" is always the empty string, never {@code null}: a {@code null} namespace given to the
 * constructor (or to {@link #of}) becomes {@code ""}. A cluster-scoped object's id has namespace {@code ""};
 * so has a desired child that names no namespace, which Metacontroller puts in its parent's namespace
 * ({@link #inNamespace} fills that in). Two ids are the same object exactly when they are {@code equals}.
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

    /**
     * The same id with the parent's namespace filled in where it was left empty; unchanged when the parent is
     * cluster-scoped (its namespace {@code ""} or {@code null}).
     */
    public ChildId inNamespace(String parentNamespace) {
        return namespace.isEmpty() && parentNamespace != null && !parentNamespace.isEmpty()
                ? new ChildId(apiVersion, kind, parentNamespace, name) : this;
    }

    @Override
    public String toString() {
        return kind + "." + apiVersion + " " + (namespace.isEmpty() ? "" : namespace + "/") + name;
    }
}
