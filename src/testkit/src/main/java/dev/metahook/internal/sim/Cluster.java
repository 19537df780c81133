package dev.metahook.internal.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.api.ChildId;
import java.util.List;
import java.util.Optional;

/**
 * Where the simulator keeps objects: the in-memory {@link ObjectStore}, or a real API server. The
 * operations are the ones Metacontroller performs; {@link #writes()} counts the changes made through
 * them, so a pass that made none is a fixed point.
 */
public interface Cluster {

    ObjectNode create(JsonNode object);

    Optional<ObjectNode> get(ChildId ref);

    /** Replaces an object but its status and server metadata. */
    ObjectNode update(JsonNode object);

    /** Writes an object's status through the status subresource; nothing when equal. */
    void setStatus(ChildId ref, JsonNode status);

    /** Deletes in the background; an object with finalizers is only marked. */
    void delete(ChildId ref);

    void addFinalizer(ChildId ref, String finalizer);

    void removeFinalizer(ChildId ref, String finalizer);

    /** Objects with a controller owner reference to this uid. */
    List<ObjectNode> ownedBy(String uid);

    /** Every object the simulation can see. */
    List<ObjectNode> all();

    long writes();
}
