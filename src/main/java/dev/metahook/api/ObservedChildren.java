package dev.metahook.api;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.List;
import java.util.Optional;

/**
 * The children (or attachments) Metacontroller observed for one parent, as it sent them. Objects are
 * converted to typed fabric8 models only when asked for, so a controller that reads two children of a
 * thousand pays for two. Kinds without a model class are read as {@link GenericKubernetesResource}.
 */
public interface ObservedChildren {

    /** Every observed child of a model class, ordered by namespace and name. */
    <T extends HasMetadata> List<T> all(Class<T> type);

    /** The child of that class and name in the parent's namespace. */
    <T extends HasMetadata> Optional<T> get(Class<T> type, String name);

    /** The child of that class, namespace and name (for cluster-scoped parents). */
    <T extends HasMetadata> Optional<T> get(Class<T> type, String namespace, String name);

    /** Every observed child of a kind without a model class. */
    List<GenericKubernetesResource> all(String apiVersion, String kind);

    /** The child of a kind without a model class, by name in the parent's namespace. */
    Optional<GenericKubernetesResource> get(String apiVersion, String kind, String name);

    /**
     * The child as Metacontroller last applied it (its {@code last-applied-configuration}
     * annotation), or, without that annotation, as observed minus status and server-managed metadata:
     * the form to return when a child must stay exactly as it is.
     */
    <T extends HasMetadata> Optional<T> lastApplied(Class<T> type, String name);

    /** How many children were observed, of all kinds. */
    int size();

    default boolean isEmpty() {
        return size() == 0;
    }
}
