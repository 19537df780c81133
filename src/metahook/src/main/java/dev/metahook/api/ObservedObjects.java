package dev.metahook.api;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.List;
import java.util.Optional;

/**
 * Objects Metacontroller sent with a call, as it sent them. They are converted to typed fabric8 models
 * only when asked for, so a controller that reads two of a thousand pays for two. Kinds without a model
 * class are read as {@link GenericKubernetesResource}. A lookup by name alone looks in the parent's
 * namespace for a namespaced type (one that implements fabric8's {@code Namespaced}) and among
 * cluster-scoped objects otherwise.
 */
public interface ObservedObjects {

    /** Every object of a model class, ordered by namespace and name. */
    <T extends HasMetadata> List<T> all(Class<T> type);

    /** The object of that class and name (in the parent's namespace, for a namespaced type). */
    <T extends HasMetadata> Optional<T> get(Class<T> type, String name);

    /** The object of that class, namespace and name; an empty namespace for a cluster-scoped object. */
    <T extends HasMetadata> Optional<T> get(Class<T> type, String namespace, String name);

    /** Every object of a kind without a model class. */
    List<GenericKubernetesResource> all(String apiVersion, String kind);

    /** The object of a kind without a model class, by name in the parent's namespace. */
    Optional<GenericKubernetesResource> get(String apiVersion, String kind, String name);

    /** The object of a kind without a model class, by namespace (empty when cluster-scoped) and name. */
    Optional<GenericKubernetesResource> get(String apiVersion, String kind, String namespace, String name);

    /** How many objects were sent, of all kinds. */
    int size();

    default boolean isEmpty() {
        return size() == 0;
    }
}
