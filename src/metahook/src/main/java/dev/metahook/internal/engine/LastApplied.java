package dev.metahook.internal.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.internal.contract.AnswerRules;
import dev.metahook.internal.wire.LastAppliedConfiguration;
import dev.metahook.internal.wire.ObservedObject;
import java.util.Optional;

/**
 * An observed child as Metacontroller last applied it: the compact JSON in its
 * {@code metacontroller.k8s.io/last-applied-configuration} annotation. Without a readable annotation,
 * the observed object minus what the server manages. Either way the result can be returned as a
 * desired child and changes nothing. Its namespace is always the observed one: identity comes from
 * what exists, not from what was once sent.
 */
final class LastApplied {

    private LastApplied() {
    }

    /**
     * The same from an observed object as the request carried it: from its annotation when it has a
     * fitting one, read without building the object's tree; from the whole object otherwise.
     */
    static ObjectNode of(ObservedObject observed, String parentNamespace) {
        return annotated(observed, parentNamespace).orElseGet(() -> of(observed.tree(), parentNamespace));
    }

    /**
     * The annotation's JSON itself (nulls, key set and numbers as Metacontroller wrote them), when the
     * observed object has a fitting one; read without building the object's tree.
     */
    static Optional<ObjectNode> annotated(ObservedObject observed, String parentNamespace) {
        return annotated(observed, observed.summary(), parentNamespace);
    }

    /** The same, from the object's summary already read. */
    static Optional<ObjectNode> annotated(ObservedObject observed, ObservedObject.Summary summary, String parentNamespace) {
        boolean fits = observed.fits(summary.apiVersion(), summary.kind(), summary.name());
        Optional<ObjectNode> applied = fits
                ? LastAppliedConfiguration.parse(summary.lastApplied()).filter(json -> sameObject(json, summary))
                : Optional.empty();
        return applied.map(json -> withoutServerFields(json, summary.namespace(), parentNamespace));
    }

    static ObjectNode of(ObjectNode observed, String parentNamespace) {
        ObjectNode child = LastAppliedConfiguration.of(observed).filter(applied -> sameObject(applied, observed))
                .orElseGet(observed::deepCopy);
        return withoutServerFields(child, observed.path("metadata").path("namespace").asText(""), parentNamespace);
    }

    private static ObjectNode withoutServerFields(ObjectNode child, String observedNamespace, String parentNamespace) {
        child.remove("status");
        ObjectNode metadata = child.withObjectProperty("metadata");
        AnswerRules.SERVER_METADATA.forEach(metadata::remove);
        if (!observedNamespace.isEmpty()) {
            metadata.put("namespace", observedNamespace);
        } else if (!parentNamespace.isEmpty()) {
            metadata.put("namespace", parentNamespace);
        }
        return child;
    }

    private static boolean sameObject(JsonNode applied, ObservedObject.Summary observed) {
        return observed.kind().equals(applied.path("kind").textValue())
                && observed.apiVersion().equals(applied.path("apiVersion").textValue())
                && observed.name().equals(applied.path("metadata").path("name").textValue());
    }

    /** An annotation copied onto another object (by hand, or by a tool) is not this object's history. */
    private static boolean sameObject(JsonNode applied, JsonNode observed) {
        return applied.path("kind").equals(observed.path("kind"))
                && applied.path("apiVersion").equals(observed.path("apiVersion"))
                && applied.path("metadata").path("name").equals(observed.path("metadata").path("name"));
    }
}
