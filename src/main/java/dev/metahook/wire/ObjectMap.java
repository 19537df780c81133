package dev.metahook.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Metacontroller's object map: group key, then object key, then the full object as Metacontroller's
 * cache holds it. Groups and keys iterate in a fixed order whatever the order of the request, so
 * everything built from a map is deterministic. Every declared group is present, possibly empty.
 */
public final class ObjectMap {
    private static final ObjectMap EMPTY = new ObjectMap(new TreeMap<>());

    private final SortedMap<GroupKey, SortedMap<String, ObjectNode>> groups;

    private ObjectMap(SortedMap<GroupKey, SortedMap<String, ObjectNode>> groups) {
        this.groups = groups;
    }

    public static ObjectMap empty() {
        return EMPTY;
    }

    /**
     * Reads a map from a request field, checking its shape: an object of group keys, each an object
     * of object keys, each a Kubernetes object with {@code kind}, {@code apiVersion} and
     * {@code metadata.name}.
     */
    static ObjectMap read(JsonNode node, String pointer) {
        if (node == null || node.isNull()) {
            return EMPTY;
        }
        if (!node.isObject()) {
            throw new MalformedRequestException(pointer, pointer + ": expected an object map, got " + Shapes.describe(node));
        }
        SortedMap<GroupKey, SortedMap<String, ObjectNode>> groups = new TreeMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> group = it.next();
            String groupPointer = pointer + "/" + Shapes.escape(group.getKey());
            GroupKey key = GroupKey.parse(group.getKey());
            if (key == null) {
                throw new MalformedRequestException(groupPointer,
                        groupPointer + ": not a group key; expected <Kind>.<apiVersion>, e.g. Deployment.apps/v1");
            }
            groups.put(key, readGroup(group.getValue(), groupPointer, key));
        }
        return new ObjectMap(groups);
    }

    private static SortedMap<String, ObjectNode> readGroup(JsonNode node, String pointer, GroupKey key) {
        if (node == null || node.isNull()) {
            return Collections.emptySortedMap();
        }
        if (!node.isObject()) {
            throw new MalformedRequestException(pointer, pointer + ": expected an object of objects by key, got " + Shapes.describe(node));
        }
        SortedMap<String, ObjectNode> objects = new TreeMap<>(CanonicalJson.CODE_POINT_ORDER);
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> entry = it.next();
            String objectPointer = pointer + "/" + Shapes.escape(entry.getKey());
            ObjectNode object = Shapes.kubernetesObject(entry.getValue(), objectPointer);
            String kind = object.path("kind").asText();
            String apiVersion = object.path("apiVersion").asText();
            if (!kind.equals(key.kind()) || !apiVersion.equals(key.apiVersion())) {
                throw new MalformedRequestException(objectPointer, objectPointer + ": object is " + kind + "." + apiVersion
                        + " but sits in group " + key);
            }
            objects.put(entry.getKey(), object);
        }
        return Collections.unmodifiableSortedMap(objects);
    }

    /** Builds a map from objects, keyed as a hook of the given version sees them. */
    public static ObjectMap of(List<ObjectNode> objects, List<GroupKey> declared, HookVersion version, boolean parentNamespaced) {
        SortedMap<GroupKey, SortedMap<String, ObjectNode>> groups = new TreeMap<>();
        for (GroupKey key : declared) {
            groups.put(key, new TreeMap<>(CanonicalJson.CODE_POINT_ORDER));
        }
        for (ObjectNode object : objects) {
            GroupKey key = new GroupKey(object.path("kind").asText(), object.path("apiVersion").asText());
            JsonNode metadata = object.path("metadata");
            String objectKey = version.key(parentNamespaced, metadata.path("namespace").asText(null), metadata.path("name").asText());
            groups.computeIfAbsent(key, k -> new TreeMap<>(CanonicalJson.CODE_POINT_ORDER)).put(objectKey, object);
        }
        return new ObjectMap(groups);
    }

    /** The groups present, in order. */
    public java.util.Set<GroupKey> groupKeys() {
        return Collections.unmodifiableSet(groups.keySet());
    }

    /** The objects of one group by key, in key order; empty when the group is absent. */
    public SortedMap<String, ObjectNode> group(GroupKey key) {
        SortedMap<String, ObjectNode> group = groups.get(key);
        return group == null ? Collections.emptySortedMap() : Collections.unmodifiableSortedMap(group);
    }

    /** Every object, group by group, key by key. */
    public List<ObjectNode> all() {
        return groups.values().stream().flatMap(g -> g.values().stream()).toList();
    }

    public int size() {
        return groups.values().stream().mapToInt(Map::size).sum();
    }

    public boolean isEmpty() {
        return size() == 0;
    }

    /** The map as Metacontroller writes it: every group present, possibly {@code {}}. */
    public ObjectNode toJson() {
        ObjectNode out = Json.object();
        groups.forEach((key, objects) -> {
            ObjectNode group = out.putObject(key.toString());
            objects.forEach(group::set);
        });
        return out;
    }
}
