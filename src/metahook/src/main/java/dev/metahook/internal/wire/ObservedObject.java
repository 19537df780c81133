package dev.metahook.internal.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * One object of an object map, as the request carried it. An object read from a request body stays
 * bytes until someone asks for it: a controller that reads two of a thousand children parses two.
 * Its name and namespace come from its key (Metacontroller makes keys from them) until it is parsed.
 */
public final class ObservedObject {
    private static final byte[] NULL = {'n', 'u', 'l', 'l'};
    private final GroupKey group;
    private final String key;
    private final String groupPointer;
    private final byte[] source;
    private final int offset;
    private final int length;
    private final int metadata;
    private final CallBudget budget;
    /** What building the object claims from {@link #budget}. */
    private final long cost;
    private volatile ObjectSpans spans;
    private volatile ObjectNode tree;
    private volatile boolean claimed;

    private ObservedObject(GroupKey group, String key, String groupPointer, byte[] source, int offset, int length, int metadata,
                           ObjectNode tree, CallBudget budget, long cost) {
        this.group = group;
        this.key = key;
        this.groupPointer = groupPointer;
        this.source = source;
        this.offset = offset;
        this.length = length;
        this.metadata = metadata;
        this.tree = tree;
        this.budget = budget;
        this.cost = cost;
        this.claimed = budget == null || cost == 0;
    }

    static ObservedObject of(GroupKey group, String key, ObjectNode tree) {
        return new ObservedObject(group, key, null, null, 0, 0, -1, tree, null, 0);
    }

    /**
     * An object the scanner passed over and found to fit its group and key, with the pointer of its group
     * and where its metadata object starts; building it claims {@code cost} from {@code budget} first.
     */
    static ObservedObject lazy(GroupKey group, String key, String groupPointer, byte[] source, int offset, int length, int metadata,
                               CallBudget budget, long cost) {
        return new ObservedObject(group, key, groupPointer, source, offset, length, metadata, null, budget, cost);
    }

    /**
     * Claims the memory that building this object takes, once, before anything is built from its bytes
     * (its tree, its typed form, its last-applied annotation); throws {@link CallBudget.Refused}
     * when the call's budget cannot hold it.
     */
    private void claim() {
        if (!claimed) {
            synchronized (this) {
                if (!claimed) {
                    budget.claim(cost);
                    claimed = true;
                }
            }
        }
    }

    /** The object's JSON pointer in the request, for errors. */
    String pointer() {
        return groupPointer + "/" + Shapes.escape(key);
    }

    /** Where the object's parts are in its bytes, found on first use. */
    private ObjectSpans spans() {
        ObjectSpans found = spans;
        if (found == null) {
            found = ObjectSpans.find(source, metadata);
            spans = found;
        }
        return found;
    }

    public GroupKey group() {
        return group;
    }

    public String key() {
        return key;
    }

    /** The object's name: from its metadata once parsed, from its key before. */
    public String name() {
        ObjectNode parsed = tree;
        if (parsed != null) {
            return parsed.path("metadata").path("name").asText();
        }
        return keyName();
    }

    /** The name its key gives: Metacontroller makes keys from names, {@code name} or {@code namespace/name}. */
    public String keyName() {
        int slash = key.indexOf('/');
        return slash < 0 ? key : key.substring(slash + 1);
    }

    /**
     * Whether an identity read from the object is the one its place in the request gives: its group's
     * kind and apiVersion, its key's name.
     */
    public boolean fits(String apiVersion, String kind, String name) {
        return group.apiVersion().equals(apiVersion) && group.kind().equals(kind) && name != null && !name.isEmpty()
                && name.equals(keyName());
    }

    /** The object's namespace, or the parent's when its key has none (a v1 key under a namespaced parent). */
    public String namespaceOr(String parentNamespace) {
        ObjectNode parsed = tree;
        if (parsed != null) {
            return parsed.path("metadata").path("namespace").asText(parentNamespace);
        }
        int slash = key.indexOf('/');
        return slash < 0 ? parentNamespace : key.substring(0, slash);
    }

    /** The whole object, parsed and checked on first use. */
    public ObjectNode tree() {
        ObjectNode parsed = tree;
        if (parsed == null) {
            claim();
            synchronized (this) {
                if (tree == null) {
                    tree = parse();
                }
                parsed = tree;
            }
        }
        return parsed;
    }

    /**
     * The object as a type, read straight from its bytes when it was not parsed yet (one pass instead
     * of bytes to tree to type). Its shape is not checked here: a caller that finds the identity
     * wrong asks {@link #tree()}, which says exactly what is wrong.
     */
    public <T> T read(Class<T> type) throws IOException {
        ObjectNode parsed = tree;
        if (parsed != null) {
            return Json.convert(parsed, type);
        }
        claim();
        if (spans().managedStart() < 0) {
            return Json.mapper().readValue(source, offset, length, type);
        }
        return Json.mapper().readValue(typedBytes(), type);
    }

    /** The bytes {@link #read} parses for an object not parsed yet: its own, {@code null} for its managedFields. */
    InputStream typedBytes() {
        return new WithoutManagedFields();
    }

    /**
     * The object's bytes with {@code null} for its managedFields, which typed objects never read
     * ({@link Json}): nearly half the bytes of a child, and the most field names to tokenize. A stream,
     * so the parser reads it into its own recycled buffer and nothing is copied for it.
     */
    private final class WithoutManagedFields extends InputStream {
        private final ObjectSpans spans = spans();
        private int position = offset;
        private int nullIndex = -1;

        @Override
        public int read() {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
        }

        @Override
        public int read(byte[] into, int at, int wanted) {
            if (nullIndex >= 0 && nullIndex < NULL.length) {
                int count = Math.min(wanted, NULL.length - nullIndex);
                System.arraycopy(NULL, nullIndex, into, at, count);
                nullIndex += count;
                if (nullIndex == NULL.length) {
                    position = spans.managedEnd();
                }
                return count;
            }
            int segmentEnd = position <= spans.managedStart() && nullIndex < 0 ? spans.managedStart() : offset + length;
            if (position >= segmentEnd) {
                if (segmentEnd == spans.managedStart() && nullIndex < 0) {
                    nullIndex = 0;
                    return read(into, at, wanted);
                }
                return -1;
            }
            int count = Math.min(wanted, segmentEnd - position);
            System.arraycopy(source, position, into, at, count);
            position += count;
            return count;
        }
    }

    /**
     * The bytes the request carried for this object, as a value (equal when the bytes are), so that
     * what was worked out from an object can be kept for the same object in a later request; null for
     * an object made from a tree.
     */
    public Bytes bytes() {
        return source == null ? null : new Bytes(source, offset, length);
    }

    /** An object's bytes as a value; its slice of a request body until {@link #copy()} keeps them on their own. */
    public static final class Bytes {
        private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
        private final byte[] source;
        private final int offset;
        private final int length;
        private final int hash;

        private Bytes(byte[] source, int offset, int length) {
            this.source = source;
            this.offset = offset;
            this.length = length;
            this.hash = hash(source, offset, length);
        }

        /** A hash of eight bytes at a step: equal bytes hash equal, and a request's children are hashed at a fraction of their parsing. */
        private static int hash(byte[] source, int offset, int length) {
            long h = length;
            int i = offset;
            for (int end = offset + length - Long.BYTES; i <= end; i += Long.BYTES) {
                h = 31 * h + (long) LONGS.get(source, i);
            }
            for (int end = offset + length; i < end; i++) {
                h = 31 * h + source[i];
            }
            return Long.hashCode(h);
        }

        /** The same bytes in an array of their own, so that keeping them does not keep the request body. */
        public Bytes copy() {
            return new Bytes(Arrays.copyOfRange(source, offset, offset + length), 0, length);
        }

        public int length() {
            return length;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Bytes that && hash == that.hash
                    && Arrays.equals(source, offset, offset + length, that.source, that.offset, that.offset + that.length);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

    /**
     * What identifies an object (its namespace {@code ""} when it has none), and its last-applied annotation (null when it has none or it is not
     * a string), with whether that annotation may hold what a typed model does not give back (a null, an
     * empty object or list, a number with a fraction or an exponent): read by the scanner as it passed
     * over the annotation, never by a pass of its own; true when not known.
     */
    public record Summary(String apiVersion, String kind, String name, String namespace, String lastApplied,
                          boolean lastAppliedMayLose) {
    }

    /**
     * The object's identity and last-applied annotation: from where the scanner saw them, without
     * building its tree (from the tree when it was built). An object read from a body fits its group
     * and key, or the request was refused.
     */
    public Summary summary() {
        ObjectNode parsed = tree;
        if (parsed != null) {
            JsonNode metadata = parsed.path("metadata");
            JsonNode annotation = metadata.path("annotations").path(LastAppliedConfiguration.ANNOTATION);
            return new Summary(parsed.path("apiVersion").textValue(), parsed.path("kind").textValue(), metadata.path("name").textValue(),
                    metadata.path("namespace").asText(""), annotation.textValue(), source == null || spans().appliedMayLose());
        }
        claim();
        ObjectSpans found = spans();
        return new Summary(group.apiVersion(), group.kind(), keyName(),
                found.namespaceStart() < 0 ? "" : text(found.namespaceStart(), found.namespaceEnd()),
                text(found.appliedStart(), found.appliedEnd()), found.appliedMayLose());
    }

    private String text(int start, int end) {
        return start < 0 ? null : JsonScanner.text(source, start, end);
    }

    private ObjectNode parse() {
        String pointer = pointer();
        JsonNode node;
        try {
            node = Json.mapper().readTree(source, offset, length);
        } catch (IOException e) {
            throw new MalformedRequestException(pointer, pointer + ": not valid JSON: " + e.getMessage());
        }
        ObjectNode object = Shapes.kubernetesObject(node, pointer);
        ObjectMap.checkGroup(object, group, pointer);
        return object;
    }
}
