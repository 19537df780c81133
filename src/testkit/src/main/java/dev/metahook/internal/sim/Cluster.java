package dev.metahook.internal.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Optional;

/**
 * Where the simulator keeps objects: the in-memory {@link ObjectStore}, or a real API server. The
 * operations are the ones Metacontroller performs; {@link #writes()} counts the changes made through
 * them, so a pass that made none is a fixed point.
 */
public interface Cluster {

    ObjectNode create(JsonNode object);

    Optional<ObjectNode> get(ObjectRef ref);

    /** Replaces an object but its status and server metadata. */
    ObjectNode update(JsonNode object);

    /** Writes an object's status through the status subresource; nothing when equal. */
    void setStatus(ObjectRef ref, JsonNode status);

    /** Deletes in the background; an object with finalizers is only marked. */
    void delete(ObjectRef ref);

    void addFinalizer(ObjectRef ref, String finalizer);

    void removeFinalizer(ObjectRef ref, String finalizer);

    /** Objects with a controller owner reference to this uid. */
    List<ObjectNode> ownedBy(String uid);

    /** Every object the simulation can see. */
    List<ObjectNode> all();

    long writes();
}
