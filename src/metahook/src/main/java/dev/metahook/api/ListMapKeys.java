package dev.metahook.api;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A list field whose entries are keyed by these fields, as a container's {@code env} is by
 * {@code name}: the generated CRD says {@code x-kubernetes-list-type: map} with these
 * {@code x-kubernetes-list-map-keys}, so the API server refuses two entries with the same keys and
 * server-side apply merges entries by key. (fabric8's crd-generator has no annotation for it.)
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.METHOD})
public @interface ListMapKeys {
    String[] value();
}
