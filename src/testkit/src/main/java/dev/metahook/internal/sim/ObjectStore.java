package dev.metahook.internal.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.api.ChildId;
import dev.metahook.internal.wire.CanonicalJson;
import dev.metahook.internal.wire.Json;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;

/**
 * The API server, as far as a hook can tell: objects with uid, resourceVersion, generation and
 * creationTimestamp; built-in objects stored in the form the API server writes them back
 * ({@link ApiServerDefaults} for its {@link KubernetesVersion}: embedded metadata, defaulted fields, a
 * Service's cluster IP); deletion that waits for finalizers; garbage collection of dependents through
 * owner references. Every change counts as a write, so a caller can tell a fixed point. Not
 * thread-safe: one simulation drives it.
 */
public final class ObjectStore implements Cluster {
    private final Map<ChildId, ObjectNode> objects = new TreeMap<>(Ids.ORDER);
    private final Clock clock;
    private final KubernetesVersion version;
    private long resourceVersion = 1000;
    private long writes;
    private int created;
    private int serviceIps;

    /** The API server of the newest supported minor. */
    public ObjectStore(Clock clock) {
        this(clock, KubernetesVersion.NEWEST);
    }

    /** The API server of {@code version}, which decides how objects are stored. */
    public ObjectStore(Clock clock, KubernetesVersion version) {
        this.clock = clock;
        this.version = version;
    }

    public KubernetesVersion version() {
        return version;
    }

    /** The same objects (and counters: new uids and resourceVersions go on from here) in a store of their own, on {@code clock}. */
    public ObjectStore copy(Clock clock) {
        ObjectStore copy = new ObjectStore(clock, version);
        objects.forEach((ref, object) -> copy.objects.put(ref, object.deepCopy()));
        copy.resourceVersion = resourceVersion;
        copy.created = created;
        copy.serviceIps = serviceIps;
        return copy;
    }

    /** Stores a new object with server metadata; an existing one of that name is an error (AlreadyExists). */
    @Override
    public ObjectNode create(JsonNode object) {
        ChildId ref = Ids.of(object);
        if (objects.containsKey(ref)) {
            throw new IllegalStateException(Ids.text(ref) + " already exists");
        }
        ObjectNode stored = (ObjectNode) stored(object);
        ObjectNode metadata = stored.withObjectProperty("metadata");
        if (!metadata.hasNonNull("uid")) {
            metadata.put("uid", UUID.nameUUIDFromBytes(("metahook-sim-" + ++created + Ids.text(ref)).getBytes(StandardCharsets.UTF_8)).toString());
        }
        ApiServerDefaults.apply(stored, metadata.path("uid").asText(), version);
        ApiServerDefaults.initialStatus(stored);
        allocateClusterIp(stored);
        metadata.put("resourceVersion", Long.toString(++resourceVersion));
        metadata.put("generation", metadata.path("generation").asLong(1));
        if (!metadata.hasNonNull("creationTimestamp")) {
            metadata.put("creationTimestamp", now());
        }
        objects.put(ref, stored);
        writes++;
        return stored.deepCopy();
    }

    @Override
    public Optional<ObjectNode> get(ChildId ref) {
        return Optional.ofNullable(objects.get(ref)).map(ObjectNode::deepCopy);
    }

    /**
     * Replaces an object but its status and server metadata; generation moves when anything outside
     * metadata and status changed. An object sent with a resourceVersion that is no longer the stored
     * one is refused with a {@link Conflict}, as the API server refuses it.
     */
    @Override
    public ObjectNode update(JsonNode object) {
        ChildId ref = Ids.of(object);
        ObjectNode existing = require(ref);
        String sent = object.path("metadata").path("resourceVersion").asText(null);
        if (sent != null && !sent.equals(existing.path("metadata").path("resourceVersion").asText())) {
            throw new Conflict(ref);
        }
        ObjectNode updated = (ObjectNode) stored(object);
        ObjectNode metadata = updated.withObjectProperty("metadata");
        for (String field : List.of("uid", "creationTimestamp", "deletionTimestamp", "generation")) {
            copyField(existing.path("metadata"), metadata, field);
        }
        ApiServerDefaults.apply(updated, metadata.path("uid").asText(), version);
        copyField(existing, updated, "status");
        if (updated.equals(existing)) {
            return existing.deepCopy();
        }
        if (!withoutMetadataAndStatus(updated).equals(withoutMetadataAndStatus(existing))) {
            metadata.put("generation", existing.path("metadata").path("generation").asLong(1) + 1);
        }
        metadata.put("resourceVersion", Long.toString(++resourceVersion));
        objects.put(ref, updated);
        writes++;
        return updated.deepCopy();
    }

    /** Writes an object's status (the status subresource, or a workload controller playing its part); no write when equal. */
    @Override
    public void setStatus(ChildId ref, JsonNode status) {
        ObjectNode existing = require(ref);
        JsonNode stored = stored(status);
        if (stored.equals(existing.get("status"))) {
            return;
        }
        existing.set("status", stored);
        existing.withObjectProperty("metadata").put("resourceVersion", Long.toString(++resourceVersion));
        writes++;
    }

    /** Deletes, or marks for deletion while finalizers remain; dependents go with their owner. */
    @Override
    public void delete(ChildId ref) {
        ObjectNode existing = objects.get(ref);
        if (existing == null) {
            return;
        }
        if (existing.path("metadata").path("finalizers").size() > 0) {
            if (!existing.path("metadata").hasNonNull("deletionTimestamp")) {
                existing.withObjectProperty("metadata").put("deletionTimestamp", now()).put("deletionGracePeriodSeconds", 0);
                existing.withObjectProperty("metadata").put("resourceVersion", Long.toString(++resourceVersion));
                writes++;
            }
            return;
        }
        objects.remove(ref);
        writes++;
        collectGarbage(existing.path("metadata").path("uid").asText());
    }

    @Override
    public void addFinalizer(ChildId ref, String finalizer) {
        ObjectNode existing = require(ref);
        ArrayNode finalizers = existing.withObjectProperty("metadata").withArray("finalizers");
        for (JsonNode present : finalizers) {
            if (present.asText().equals(finalizer)) {
                return;
            }
        }
        finalizers.add(finalizer);
        existing.withObjectProperty("metadata").put("resourceVersion", Long.toString(++resourceVersion));
        writes++;
    }

    /** Removes a finalizer; an object being deleted goes once it has none left. */
    @Override
    public void removeFinalizer(ChildId ref, String finalizer) {
        ObjectNode existing = objects.get(ref);
        if (existing == null) {
            return;
        }
        ArrayNode finalizers = existing.withObjectProperty("metadata").withArray("finalizers");
        for (int i = finalizers.size() - 1; i >= 0; i--) {
            if (finalizers.get(i).asText().equals(finalizer)) {
                finalizers.remove(i);
                existing.withObjectProperty("metadata").put("resourceVersion", Long.toString(++resourceVersion));
                writes++;
            }
        }
        if (finalizers.isEmpty()) {
            existing.withObjectProperty("metadata").remove("finalizers");
            if (existing.path("metadata").hasNonNull("deletionTimestamp")) {
                delete(ref);
            }
        }
    }

    /** Objects with a controller owner reference to this uid. */
    @Override
    public List<ObjectNode> ownedBy(String uid) {
        List<ObjectNode> owned = new ArrayList<>();
        for (ObjectNode object : objects.values()) {
            for (JsonNode owner : object.path("metadata").path("ownerReferences")) {
                if (uid.equals(owner.path("uid").asText()) && owner.path("controller").asBoolean(false)) {
                    owned.add(object.deepCopy());
                }
            }
        }
        return owned;
    }

    @Override
    public List<ObjectNode> all() {
        return objects.values().stream().map(ObjectNode::deepCopy).toList();
    }

    /** How many changes the store has taken: equal before and after a pass means nothing changed. */
    @Override
    public long writes() {
        return writes;
    }

    public String now() {
        return DateTimeFormatter.ISO_INSTANT.format(clock.instant().truncatedTo(ChronoUnit.SECONDS));
    }

    /**
     * An object as the API server keeps it: numbers decoded the way it decodes them, so that
     * {@code 3.0} is stored as {@code 3} and a later {@code 3.0} is a change, as it is for Metacontroller.
     */
    private static JsonNode stored(JsonNode object) {
        return Json.parse(CanonicalJson.bytes(object));
    }

    /** A Service gets a cluster IP of its own unless it asked for one (or for none: {@code None}). */
    private void allocateClusterIp(ObjectNode object) {
        if (!"Service".equals(object.path("kind").asText()) || !"v1".equals(object.path("apiVersion").asText())
                || !(object.get("spec") instanceof ObjectNode spec) || "ExternalName".equals(spec.path("type").asText())) {
            return;
        }
        if (!spec.hasNonNull("clusterIP")) {
            spec.put("clusterIP", "10.96." + (++serviceIps / 250) + "." + (serviceIps % 250 + 2));
        }
        if (!spec.has("clusterIPs")) {
            spec.putArray("clusterIPs").add(spec.get("clusterIP").asText());
        }
    }

    private void collectGarbage(String ownerUid) {
        if (ownerUid.isEmpty()) {
            return;
        }
        for (ObjectNode dependent : ownedByAny(ownerUid)) {
            delete(Ids.of(dependent));
        }
    }

    private List<ObjectNode> ownedByAny(String uid) {
        List<ObjectNode> owned = new ArrayList<>();
        for (ObjectNode object : objects.values()) {
            for (JsonNode owner : object.path("metadata").path("ownerReferences")) {
                if (uid.equals(owner.path("uid").asText())) {
                    owned.add(object);
                }
            }
        }
        return owned;
    }

    private ObjectNode require(ChildId ref) {
        ObjectNode existing = objects.get(ref);
        if (existing == null) {
            throw new IllegalStateException(Ids.text(ref) + " does not exist");
        }
        return existing;
    }

    private static void copyField(JsonNode from, ObjectNode to, String field) {
        if (from.has(field)) {
            to.set(field, from.get(field).deepCopy());
        } else {
            to.remove(field);
        }
    }

    private static ObjectNode withoutMetadataAndStatus(ObjectNode object) {
        ObjectNode copy = object.deepCopy();
        copy.remove("metadata");
        copy.remove("status");
        return copy;
    }
}
