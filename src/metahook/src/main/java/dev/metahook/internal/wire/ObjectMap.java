package dev.metahook.internal.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

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
     * Scans a map of a request body, checking its envelope (groups, keys, that each object is an object
     * and what its group and key say) and the JSON of every object, and keeping only where each part is
     * and what building each object would cost ({@link CallBudget#costOf}): nothing is built until
     * {@link #build}, so what a call will build can be admitted in between.
     */
    static Places scan(JsonScanner scanner, int start, String pointer, CallBudget budget) {
        Places places = new Places(pointer);
        if (scanner.isNull(start)) {
            places.end = scanner.valueEnd(start);
            return places;
        }
        if (scanner.at(start) != '{') {
            scanner.valueEnd(start);
            throw new MalformedRequestException(pointer, pointer + ": expected an object map, got " + scanner.describe(start));
        }
        places.present = true;
        places.end = scanner.fieldSpans(start, (nameStart, nameEnd, groupStart) -> {
            String group = scanner.text(nameStart, nameEnd);
            String groupPointer = pointer + "/" + Shapes.escape(group);
            GroupKey key = groupKey(group, groupPointer);
            if (scanner.isNull(groupStart)) {
                places.group(nameStart, nameEnd, -1);
                return scanner.valueEnd(groupStart);
            }
            if (scanner.at(groupStart) != '{') {
                scanner.valueEnd(groupStart);
                throw new MalformedRequestException(groupPointer, groupPointer + ": expected an object of objects by key, got "
                        + scanner.describe(groupStart));
            }
            places.group(nameStart, nameEnd, groupStart);
            ObservedIdentity identity = new ObservedIdentity(scanner, key);
            return scanner.fieldSpans(groupStart, (keyStart, keyEnd, from) -> {
                if (scanner.at(from) != '{') {
                    scanner.valueEnd(from);
                    String objectPointer = groupPointer + "/" + Shapes.escape(scanner.text(keyStart, keyEnd));
                    throw new MalformedRequestException(objectPointer, objectPointer + ": expected an object, got " + scanner.describe(from));
                }
                scanner.mark();
                int to = identity.scan(scanner.text(keyStart, keyEnd), from);
                long cost = budget.costOf(scanner.censusSinceMark(from, to));
                places.object(keyStart, keyEnd, from, to, identity.metadataStart(), identity.fits(), cost);
                return to;
            });
        });
        return places;
    }

    /**
     * The map a scan found, each object kept as the bytes it was and claiming its cost from {@code budget}
     * when built; refuses the first object that is not what its group and key say.
     */
    static ObjectMap build(Places places, byte[] body, CallBudget budget) {
        if (!places.present) {
            return EMPTY;
        }
        SortedMap<GroupKey, SortedMap<String, ObservedObject>> groups = new TreeMap<>();
        int object = 0;
        for (int g = 0; g < places.groupCount; g++) {
            int[] at = places.groups;
            int slot = g * Places.GROUP;
            String group = JsonScanner.text(body, at[slot], at[slot + 1]);
            GroupKey key = GroupKey.parse(group);
            if (at[slot + 2] < 0) {
                groups.put(key, Collections.emptySortedMap());
                continue;
            }
            String groupPointer = places.pointer + "/" + Shapes.escape(group);
            SortedMap<String, ObservedObject> objects = new TreeMap<>(CanonicalJson.CODE_POINT_ORDER);
            for (; object < at[slot + 3]; object++) {
                int[] o = places.objects;
                int os = object * Places.OBJECT;
                String objectKey = JsonScanner.text(body, o[os], o[os + 1]);
                ObservedObject observed = ObservedObject.lazy(key, objectKey, groupPointer, body, o[os + 2], o[os + 3] - o[os + 2],
                        o[os + 4], budget, places.costs[object]);
                if (o[os + 5] == 0) {
                    throw ObservedIdentity.misfit(observed, objectKey, observed.pointer());
                }
                objects.put(objectKey, observed);
            }
            groups.put(key, Collections.unmodifiableSortedMap(objects));
        }
        return new ObjectMap(groups);
    }

    /**
     * Where a scanned map's groups and objects are in the body: a few ints each, so a body of many
     * small objects holds little more than its bytes until its work is admitted.
     */
    static final class Places {
        /** A group: where its name starts and ends, where its object starts (-1: null), and the index after its last object. */
        static final int GROUP = 4;
        /** An object: where its key starts and ends, where it starts and ends, where its metadata starts (-1: none), and whether it fits (1) or not (0). */
        static final int OBJECT = 6;
        private final String pointer;
        private boolean present;
        private int end;
        private int[] groups = new int[GROUP * 4];
        private int groupCount;
        private int[] objects = new int[OBJECT * 16];
        /** What building each object claims, by the census the scanner counted over it. */
        private long[] costs = new long[16];
        private int objectCount;
        private long keyBytes;

        private Places(String pointer) {
            this.pointer = pointer;
        }

        /** The index just after the map in the body. */
        int end() {
            return end;
        }

        int groupCount() {
            return groupCount;
        }

        int objectCount() {
            return objectCount;
        }

        /** The bytes of the groups' names and the objects' keys, as they are in the body. */
        long keyBytes() {
            return keyBytes;
        }

        private void group(int nameStart, int nameEnd, int start) {
            if ((groupCount + 1) * GROUP > groups.length) {
                groups = Arrays.copyOf(groups, groups.length * 2);
            }
            int slot = groupCount++ * GROUP;
            groups[slot] = nameStart;
            groups[slot + 1] = nameEnd;
            groups[slot + 2] = start;
            groups[slot + 3] = objectCount;
            keyBytes += nameEnd - nameStart;
        }

        private void object(int keyStart, int keyEnd, int from, int to, int metadata, boolean fits, long cost) {
            if ((objectCount + 1) * OBJECT > objects.length) {
                objects = Arrays.copyOf(objects, objects.length * 2);
                costs = Arrays.copyOf(costs, costs.length * 2);
            }
            costs[objectCount] = cost;
            int slot = objectCount++ * OBJECT;
            objects[slot] = keyStart;
            objects[slot + 1] = keyEnd;
            objects[slot + 2] = from;
            objects[slot + 3] = to;
            objects[slot + 4] = metadata;
            objects[slot + 5] = fits ? 1 : 0;
            groups[(groupCount - 1) * GROUP + 3] = objectCount;
            keyBytes += keyEnd - keyStart;
        }
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
