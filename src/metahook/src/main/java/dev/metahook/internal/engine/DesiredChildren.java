package dev.metahook.internal.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.api.HookResult;
import dev.metahook.internal.contract.Breach;
import dev.metahook.internal.wire.ObjectMap;
import dev.metahook.internal.wire.ObservedObject;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The children a result asks for, as the trees that go on the wire: the observed ones as last applied
 * when the result keeps them, each with the parent's namespace where it has none, a child the
 * controller built written over its last-applied JSON ({@link LastAppliedBase}); in both, an embedded item's zero
 * creationTimestamp in the form the observed child stores ({@link StoredTimestampForm}).
 *
 * <p>They stay in the controller's order: Metacontroller's rolling updates ({@code RollingRecreate},
 * {@code RollingInPlace}) move children one at a time in the order of the latest sync answer, so the
 * order is the controller's rollout order. Children kept as observed come in the request's fixed
 * order (group key, then object key), whatever order the request had them in.
 */
final class DesiredChildren {
    private DesiredChildren() {
    }

    static List<ObjectNode> of(HookResult<?> result, ObjectMap observed, String parentNamespace) {
        List<ObjectNode> children = new ArrayList<>();
        if (result.keepsObserved()) {
            observed.entries().forEach(child -> children.add(StoredTimestampForm.mirror(LastApplied.of(child, parentNamespace),
                    Optional.of(child))));
        }
        List<Breach> notObjects = new ArrayList<>();
        for (HasMetadata child : result.objects()) {
            JsonNode tree = Encoding.tree(child);
            if (tree instanceof ObjectNode object) {
                ObjectNode placed = withNamespace(object, parentNamespace);
                children.add(StoredTimestampForm.mirror(LastAppliedBase.fit(placed, child.getClass(), observed, parentNamespace),
                        () -> LastAppliedBase.counterpart(placed, observed, parentNamespace).map(ObservedObject::tree)));
            } else {
                notObjects.add(new Breach("malformed", "child " + child.getClass().getSimpleName() + " is not written as a JSON object"));
            }
        }
        if (!notObjects.isEmpty()) {
            throw new GuardViolation(notObjects);
        }
        return children;
    }

    private static ObjectNode withNamespace(ObjectNode child, String parentNamespace) {
        if (!parentNamespace.isEmpty() && child.get("metadata") instanceof ObjectNode metadata && !metadata.hasNonNull("namespace")) {
            metadata.put("namespace", parentNamespace);
        }
        return child;
    }
}
