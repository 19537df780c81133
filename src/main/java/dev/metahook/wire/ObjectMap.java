package dev.metahook.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Metacontroller's object map: group key, then object key, then the full object as Metacontroller's
 * cache holds it. Groups and keys iterate in a fixed order whatever the order of the request, so
 * everything built from a map is deterministic. Every declared group is present, possibly empty.
 */
public final class ObjectMap {
    private static final ObjectMap EMPTY = new ObjectMap(new TreeMap<>());

    private final SortedMap<GroupKey, SortedMap<String, ObservedObject>> groups;

    private ObjectMap(SortedMap<GroupKey, SortedMap<String, ObservedObject>> groups) {
        this.groups = groups;
    }

    public static ObjectMap empty() {
        return EMPTY;
    }

    /**
     * Reads a map from a request body, keeping each object as the bytes it was: only the envelope
     * (groups, keys, that each object is an object) is checked now, the rest when an object is used.
     * Hands the map over and returns the index just after it. Building an object claims its heap from {@code heap}.
     */
    static int scan(JsonScanner scanner, int start, String pointer, ObservedHeap heap, Consumer<ObjectMap> result) {
        if (scanner.isNull(start)) {
            result.accept(EMPTY);
            return scanner.valueEnd(start);
        }
        if (scanner.at(start) != '{') {
            scanner.valueEnd(start);
            throw new MalformedRequestException(pointer, pointer + ": expected an object map, got " + scanner.describe(start));
        }
        SortedMap<GroupKey, SortedMap<String, ObservedObject>> groups = new TreeMap<>();
        int end = scanner.fields(start, (group, groupStart) -> {
            String groupPointer = pointer + "/" + Shapes.escape(group);
            GroupKey key = groupKey(group, groupPointer);
            if (scanner.isNull(groupStart)) {
                groups.put(key, Collections.emptySortedMap());
                return scanner.valueEnd(groupStart);
            }
            if (scanner.at(groupStart) != '{') {
                scanner.valueEnd(groupStart);
                throw new MalformedRequestException(groupPointer, groupPointer + ": expected an object of objects by key, got "
                        + scanner.describe(groupStart));
            }
            SortedMap<String, ObservedObject> objects = new TreeMap<>(CanonicalJson.CODE_POINT_ORDER);
            ObservedIdentity identity = new ObservedIdentity(scanner, key);
            int groupEnd = scanner.fields(groupStart, (objectKey, from) -> {
                if (scanner.at(from) != '{') {
                    scanner.valueEnd(from);
                    String objectPointer = groupPointer + "/" + Shapes.escape(objectKey);
                    throw new MalformedRequestException(objectPointer, objectPointer + ": expected an object, got " + scanner.describe(from));
                }
                int to = identity.scan(objectKey, from);
                ObservedObject object = ObservedObject.lazy(key, objectKey, groupPointer, scanner.body(), from, to - from, identity.metadataStart(),
                        heap);
                if (!identity.fits()) {
                    throw identity.misfit(object, object.pointer());
                }
                objects.put(objectKey, object);
                return to;
            });
            groups.put(key, Collections.unmodifiableSortedMap(objects));
            return groupEnd;
        });
        result.accept(new ObjectMap(groups));
        return end;
    }

    private static GroupKey groupKey(String text, String pointer) {
        GroupKey key = GroupKey.parse(text);
        if (key == null) {
            throw new MalformedRequestException(pointer, pointer + ": not a group key; expected <Kind>.<apiVersion>, e.g. Deployment.apps/v1");
        }
        return key;
    }

    static void checkGroup(ObjectNode object, GroupKey key, String pointer) {
        String kind = object.path("kind").asText();
        String apiVersion = object.path("apiVersion").asText();
        if (!kind.equals(key.kind()) || !apiVersion.equals(key.apiVersion())) {
            throw new MalformedRequestException(pointer, pointer + ": object is " + kind + "." + apiVersion + " but sits in group " + key);
        }
    }

    /** Builds a map from objects, keyed as a hook of the given version sees them. */
    public static ObjectMap of(List<ObjectNode> objects, List<GroupKey> declared, HookVersion version, boolean parentNamespaced) {
        SortedMap<GroupKey, SortedMap<String, ObservedObject>> groups = new TreeMap<>();
        for (GroupKey key : declared) {
            groups.put(key, new TreeMap<>(CanonicalJson.CODE_POINT_ORDER));
        }
        for (ObjectNode object : objects) {
            GroupKey key = new GroupKey(object.path("kind").asText(), object.path("apiVersion").asText());
            JsonNode metadata = object.path("metadata");
            String objectKey = version.key(parentNamespaced, metadata.path("namespace").asText(null), metadata.path("name").asText());
            groups.computeIfAbsent(key, k -> new TreeMap<>(CanonicalJson.CODE_POINT_ORDER)).put(objectKey, ObservedObject.of(key, objectKey, object));
        }
        return new ObjectMap(groups);
    }

    /** The groups present, in order. */
    public Set<GroupKey> groupKeys() {
        return Collections.unmodifiableSet(groups.keySet());
    }

    /** The objects of one group by key, in key order, as they came; empty when the group is absent. */
    public SortedMap<String, ObservedObject> entries(GroupKey key) {
        SortedMap<String, ObservedObject> group = groups.get(key);
        return group == null ? Collections.emptySortedMap() : Collections.unmodifiableSortedMap(group);
    }

    /** Every object as it came, group by group, key by key. */
    public List<ObservedObject> entries() {
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
            objects.forEach((objectKey, object) -> group.set(objectKey, object.tree()));
        });
        return out;
    }
}
