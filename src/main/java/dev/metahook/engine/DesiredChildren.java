package dev.metahook.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.api.Result;
import dev.metahook.contract.Breach;
import dev.metahook.wire.Json;
import dev.metahook.wire.ObjectMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The children a result asks for, as the trees that go on the wire: the observed ones as last applied
 * when the result keeps them, each with the parent's namespace where it has none, a child the
 * controller built written over its last-applied JSON ({@link LastAppliedBase}), in a fixed order
 * (group key, namespace, name) whatever order the controller built them in.
 */
final class DesiredChildren {
    private static final Comparator<ObjectNode> ORDER = Comparator
            .comparing((ObjectNode child) -> child.path("kind").asText() + "." + child.path("apiVersion").asText())
            .thenComparing(child -> child.path("metadata").path("namespace").asText())
            .thenComparing(child -> child.path("metadata").path("name").asText());

    private DesiredChildren() {
    }

    static List<ObjectNode> of(Result<?> result, ObjectMap observed, String parentNamespace) {
        List<ObjectNode> children = new ArrayList<>();
        if (result.keepsObserved()) {
            observed.entries().forEach(child -> children.add(LastApplied.of(child, parentNamespace)));
        }
        List<Breach> notObjects = new ArrayList<>();
        for (HasMetadata child : result.objects()) {
            JsonNode tree = Json.tree(child);
            if (tree instanceof ObjectNode object) {
                children.add(LastAppliedBase.fit(withNamespace(object, parentNamespace), child.getClass(), observed, parentNamespace));
            } else {
                notObjects.add(new Breach("malformed", "child " + child.getClass().getSimpleName() + " is not written as a JSON object"));
            }
        }
        if (!notObjects.isEmpty()) {
            throw new GuardViolation(notObjects);
        }
        children.sort(ORDER);
        return children;
    }

    private static ObjectNode withNamespace(ObjectNode child, String parentNamespace) {
        if (parentNamespace != null && child.get("metadata") instanceof ObjectNode metadata && !metadata.hasNonNull("namespace")) {
            metadata.put("namespace", parentNamespace);
        }
        return child;
    }
}
