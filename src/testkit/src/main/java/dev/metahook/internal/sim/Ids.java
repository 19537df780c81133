package dev.metahook.internal.sim;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahook.api.ChildId;
import java.util.Comparator;

/**
 * The simulator's side of {@link ChildId}, its one identity of an object: read from an object's JSON, the
 * store's order, and the short text its messages and reports have always used ({@code Kind namespace/name},
 * without the apiVersion that {@link ChildId#toString} adds).
 */
public final class Ids {
    /** The store's order: kind, apiVersion, namespace ({@code ""} first: cluster-scoped), name. */
    public static final Comparator<ChildId> ORDER = Comparator.comparing(ChildId::kind)
            .thenComparing(ChildId::apiVersion).thenComparing(ChildId::namespace).thenComparing(ChildId::name);

    private Ids() {
    }

    /** The identity of an object as JSON; a missing namespace is {@code ""}, as {@link ChildId} says. */
    public static ChildId of(JsonNode object) {
        JsonNode metadata = object.path("metadata");
        return new ChildId(object.path("apiVersion").asText(), object.path("kind").asText(),
                metadata.path("namespace").asText(""), metadata.path("name").asText());
    }

    /** {@code Kind namespace/name}, or {@code Kind name} when cluster-scoped. */
    public static String text(ChildId id) {
        return id.kind() + " " + (id.namespace().isEmpty() ? "" : id.namespace() + "/") + id.name();
    }
}
