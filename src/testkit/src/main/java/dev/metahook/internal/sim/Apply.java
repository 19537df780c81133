package dev.metahook.internal.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.api.ChildId;
import dev.metahook.internal.wire.CanonicalJson;
import dev.metahook.internal.wire.Json;
import dev.metahook.internal.wire.LastAppliedConfiguration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Map;
import java.util.TreeMap;

/**
 * Metacontroller's management of children (or attachments) after a successful answer: create what is
 * missing with the last-applied annotation and a controller reference, update what differs as the
 * child type's update strategy says, delete what the answer left out. Children being deleted are
 * never touched.
 */
final class Apply {
    private static final List<String> SYSTEM_METADATA = List.of("selfLink", "uid", "resourceVersion", "generation",
            "creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds", "managedFields");

    private final Cluster store;
    private final ControllerSpec spec;
    private int writes;

    Apply(Cluster store, ControllerSpec spec) {
        this.store = store;
        this.spec = spec;
    }

    /**
     * Creates, updates and deletes as Metacontroller would; the updates it sent, in order.
     *
     * @throws UnservedKinds after the rest is done, when a desired child's kind is not served: none of those is written
     */
    List<ChildUpdate> manage(ObjectNode owner, List<ObjectNode> observed, List<ObjectNode> desired) {
        List<ChildUpdate> updates = new ArrayList<>();
        List<ChildId> unserved = new ArrayList<>();
        Map<ChildId, ObjectNode> existing = new TreeMap<>(Ids.ORDER);
        observed.forEach(child -> existing.put(Ids.of(child), child));
        Map<ChildId, ObjectNode> wanted = new TreeMap<>(Ids.ORDER);
        desired.forEach(child -> wanted.put(Ids.of(child), child));
        wanted.forEach((ref, child) -> {
            ObjectNode current = existing.get(ref);
            if (!spec.discovery().servesKind(ref.apiVersion(), ref.kind())) {
                unserved.add(ref);
            } else if (current == null) {
                create(owner, ref, child);
            } else if (!current.path("metadata").hasNonNull("deletionTimestamp")) {
                update(current, child).ifPresent(updates::add);
            }
        });
        existing.forEach((ref, child) -> {
            if (!wanted.containsKey(ref) && !child.path("metadata").hasNonNull("deletionTimestamp")) {
                store.delete(ref);
                writes++;
            }
        });
        if (!unserved.isEmpty()) {
            throw new UnservedKinds(unserved);
        }
        return updates;
    }

    /**
     * The object Metacontroller would write over an observed child for this desired one: the three-way
     * merge with the new last-applied annotation, status and system metadata as observed.
     */
    static ObjectNode merged(ObjectNode observed, ObjectNode desired) {
        ObjectNode withAnnotation = desired.deepCopy();
        map(withAnnotation.withObjectProperty("metadata"), "annotations").put(LastAppliedConfiguration.ANNOTATION, CanonicalJson.string(desired));
        ObjectNode merged = (ObjectNode) ThreeWayMerge.merge(observed,
                LastAppliedConfiguration.of(observed).orElseGet(Json::object), withAnnotation);
        ObjectNode metadata = merged.withObjectProperty("metadata");
        for (String field : SYSTEM_METADATA) {
            revert(observed.path("metadata"), metadata, field);
        }
        revert(observed, merged, "status");
        return merged;
    }

    private void create(ObjectNode owner, ChildId ref, ObjectNode desired) {
        if (store.get(ref).isPresent()) {
            return;
        }
        ObjectNode child = desired.deepCopy();
        map(child.withObjectProperty("metadata"), "annotations").put(LastAppliedConfiguration.ANNOTATION, CanonicalJson.string(desired));
        JsonNode ownerMetadata = owner.path("metadata");
        child.withObjectProperty("metadata").withArray("ownerReferences").addObject()
                .put("apiVersion", owner.path("apiVersion").asText()).put("kind", owner.path("kind").asText())
                .put("name", ownerMetadata.path("name").asText()).put("uid", ownerMetadata.path("uid").asText())
                .put("controller", true).put("blockOwnerDeletion", true);
        store.create(child);
        writes++;
    }

    /** The creates, updates and deletes of children sent so far (an update is sent even when the API server stores nothing new). */
    int writes() {
        return writes;
    }

    /**
     * Sends an update when the merge differs from the stored object: every such update is a write
     * for Metacontroller, even one the API server stores as a no-op.
     */
    private Optional<ChildUpdate> update(ObjectNode observed, ObjectNode desired) {
        ObjectNode merged = merged(observed, desired);
        if (merged.equals(observed)) {
            return Optional.empty();
        }
        String resource = ResourceKinds.resourceOf(observed.path("kind").asText());
        switch (spec.updateMethod(observed.path("apiVersion").asText(), resource)) {
            case "Recreate", "RollingRecreate" -> store.delete(Ids.of(observed));
            case "InPlace", "RollingInPlace" -> store.update(merged);
            default -> {
                return Optional.empty();
            }
        }
        writes++;
        String lastApplied = observed.path("metadata").path("annotations").path(LastAppliedConfiguration.ANNOTATION).textValue();
        boolean asked = lastApplied == null || !CanonicalJson.string(desired).equals(lastApplied)
                && !LastAppliedConfiguration.parse(lastApplied).map(desired::equals).orElse(false);
        return Optional.of(new ChildUpdate(Ids.of(observed), asked, Checker.firstDifference(observed, merged, "")));
    }

    /**
     * The labels or annotations of a metadata object, made a map when absent or {@code null}: Go reads a
     * null map as none, so Metacontroller writes its own annotations into a new one.
     */
    static ObjectNode map(ObjectNode metadata, String field) {
        if (!metadata.path(field).isObject()) {
            metadata.putObject(field);
        }
        return (ObjectNode) metadata.get(field);
    }

    private static void revert(JsonNode from, ObjectNode to, String field) {
        if (from.has(field)) {
            to.set(field, from.get(field).deepCopy());
        } else {
            to.remove(field);
        }
    }
}
