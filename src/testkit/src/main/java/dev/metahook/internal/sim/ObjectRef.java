package dev.metahook.internal.sim;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Comparator;

/** Identifies an object in the store: apiVersion, kind, namespace (empty when cluster-scoped), name. */
public record ObjectRef(String apiVersion, String kind, String namespace, String name) implements Comparable<ObjectRef> {
    private static final Comparator<ObjectRef> ORDER = Comparator.comparing(ObjectRef::kind)
            .thenComparing(ObjectRef::apiVersion).thenComparing(ObjectRef::namespace).thenComparing(ObjectRef::name);

    public ObjectRef {
        namespace = namespace == null ? "" : namespace;
    }

    public static ObjectRef of(JsonNode object) {
        JsonNode metadata = object.path("metadata");
        return new ObjectRef(object.path("apiVersion").asText(), object.path("kind").asText(),
                metadata.path("namespace").asText(""), metadata.path("name").asText());
    }

    @Override
    public int compareTo(ObjectRef other) {
        return ORDER.compare(this, other);
    }

    @Override
    public String toString() {
        return kind + " " + (namespace.isEmpty() ? "" : namespace + "/") + name;
    }
}
