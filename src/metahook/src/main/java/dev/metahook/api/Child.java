package dev.metahook.api;

import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * A resource a controller creates and observes (a composite's child, a decorator's attachment): its
 * apiVersion, its plural resource name and how Metacontroller updates it.
 */
public record Child(String apiVersion, String resource, Update update) {

    public Child {
        if (apiVersion == null || apiVersion.isBlank() || resource == null || resource.isBlank() || update == null) {
            throw new IllegalArgumentException("a child resource needs an apiVersion, a resource and an update strategy");
        }
    }

    /** Objects of this fabric8 model (or annotated) type; apiVersion and plural follow from its annotations. */
    public static Child of(Class<? extends HasMetadata> type, Update update) {
        return new Child(HasMetadata.getApiVersion(type), HasMetadata.getPlural(type), update);
    }

    /** Objects of a resource that has no Java type here. */
    public static Child of(String apiVersion, String resource, Update update) {
        return new Child(apiVersion, resource, update);
    }
}
