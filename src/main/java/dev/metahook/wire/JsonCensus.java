package dev.metahook.wire;

import com.fasterxml.jackson.databind.JsonNode;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * What a JSON text holds, counted in one pass over its bytes without building anything, and what its
 * trees would take in heap: the measure the memory budget charges a call by and the caches weigh what
 * they keep by. The pass only counts (objects, arrays, fields, array items, strings and their bytes,
 * numbers, depth), so it runs on a body before any tree is made of it; the grammar is checked later,
 * by the reader. Strings that start with an opening brace (a last-applied annotation holds an object)
 * are also counted as the JSON texts they hold, whose trees a call may build too.
 *
 * <p>The heap of a tree is the sum of Jackson's node objects on a 64-bit JVM with compressed
 * references (docs/production.md lists each constant and the measurements that check them): an object
 * node and its {@code LinkedHashMap} {@value #OBJECT} bytes, {@value #TABLE} more for the hash table
 * of a non-empty one, {@value #FIELD} per field plus its name as a string ({@value #STRING} bytes and
 * one per byte: names repeat in practice, but nothing is assumed shared), an array node and its list
 * {@value #ARRAY}, {@value #ITEM} per item, a text node and its string {@value #TEXT} plus a byte per
 * byte (two when the string is not ASCII), an integer {@value #INTEGER}, a decimal {@value #DECIMAL};
 * {@code true}, {@code false} and {@code null} are shared.
 *
 * <p>The same pass can also cost each observed object of a hook request on its own ({@link #ofRequest}):
 * the objects of the top-level object maps ({@code children}, {@code related}, {@code attachments}),
 * which a call builds only when its controller reads them, so the call is charged for them only then
 * ({@link ObservedHeap}).
 */
public record JsonCensus(long bytes, long objects, long emptyObjects, long arrays, long emptyArrays, long fields, long nameBytes,
                         long values, long items, long texts, long textBytes, long wideTextBytes, long integers, long decimals,
                         int depth, int deepestAt, long largestString, long embeddedNodes, long embeddedBytes) {
    static final int OBJECT = 80;
    static final int TABLE = 80;
    static final int FIELD = 56;
    static final int STRING = 40;
    static final int ARRAY = 80;
    static final int ITEM = 6;
    static final int TEXT = 56;
    static final int INTEGER = 16;
    static final int DECIMAL = 104;
    /** A node of a JSON text held in a string, per structural byte (brace, bracket, colon, comma): a field with its name and value. */
    static final int EMBEDDED_NODE = 160;

    /** Deeper than this a body is refused (400): no Kubernetes object nests near it, and every tree walk would pay for it. */
    public static int maxDepth() {
        return JsonScanner.MAX_DEPTH;
    }

    /** Whether the text nests deeper than {@link #maxDepth()}. */
    public boolean tooDeep() {
        return depth > JsonScanner.MAX_DEPTH;
    }

    /** The heap one Jackson tree of the whole text takes. */
    public long treeBytes() {
        return nodeBytes() + stringBytes();
    }

    /** The part of {@link #treeBytes()} that is nodes, containers and string headers: what every copy of the tree builds anew. */
    public long nodeBytes() {
        long nonEmpty = objects - emptyObjects;
        return objects * OBJECT + nonEmpty * TABLE + fields * (FIELD + STRING) + arrays * ARRAY + items * ITEM
                + texts * TEXT + integers * INTEGER + decimals * DECIMAL;
    }

    /** The part of {@link #treeBytes()} that is the characters of names and strings: shared by the typed copies made from the tree. */
    public long stringBytes() {
        return nameBytes + textBytes + wideTextBytes;
    }

    /** The heap the trees of the JSON texts held in strings take (a last-applied annotation parsed). */
    public long embeddedTreeBytes() {
        return embeddedNodes * EMBEDDED_NODE + embeddedBytes;
    }

    /** The census of a whole body. */
    public static JsonCensus of(byte[] body) {
        return of(body, 0, body.length);
    }

    /** The census of {@code body[from, to)}. */
    public static JsonCensus of(byte[] body, int from, int to) {
        Counter counter = new Counter(body, to);
        counter.scan(from);
        return counter.result(to - from);
    }

    /** The top-level fields of a hook request whose values are object maps: their objects are built only when read. */
    private static final byte[][] MAP_FIELDS = {"children".getBytes(StandardCharsets.US_ASCII),
            "related".getBytes(StandardCharsets.US_ASCII), "attachments".getBytes(StandardCharsets.US_ASCII)};

    /**
     * The census of a hook request's body, and each of its observed objects costed apart by {@code cost}
     * (whose census it is given): the whole census counts them too.
     */
    public static Request ofRequest(byte[] body, ToLongFunction<JsonCensus> cost) {
        Counter counter = new Counter(body, body.length);
        counter.observed = new ObservedCounter(cost);
        counter.scan(0);
        return new Request(counter.result(body.length), counter.observed.result());
    }

    /** A request's census, and its observed objects costed apart. */
    public record Request(JsonCensus body, Observed observed) {
    }

    /**
     * The observed objects of a request: where each starts in the body (ascending), what each costs, and
     * their sum; {@code cost} is how they were costed, for an object the pass did not see.
     */
    public record Observed(int[] starts, long[] costs, int count, long total, ToLongFunction<JsonCensus> cost) {
        /** The cost of the object that starts at {@code start}, or -1 when no object of the census starts there. */
        public long costAt(int start) {
            int at = Arrays.binarySearch(starts, 0, count, start);
            return at < 0 ? -1 : costs[at];
        }
    }

    /** What a tree built already takes, by the same constants (a cache weighs what it keeps by it). */
    public static long treeBytes(JsonNode root) {
        long sum = 0;
        ArrayDeque<JsonNode> pending = new ArrayDeque<>();
        pending.push(root);
        while (!pending.isEmpty()) {
            JsonNode node = pending.pop();
            if (node.isObject()) {
                sum += OBJECT + (node.isEmpty() ? 0 : TABLE);
                for (Iterator<Map.Entry<String, JsonNode>> it = node.properties().iterator(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> field = it.next();
                    sum += FIELD + STRING + field.getKey().length();
                    pending.push(field.getValue());
                }
            } else if (node.isArray()) {
                sum += ARRAY + (long) ITEM * node.size();
                node.forEach(pending::push);
            } else if (node.isTextual()) {
                String text = node.textValue();
                sum += TEXT + (long) text.length() * (isLatin1(text) ? 1 : 2);
            } else if (node.isIntegralNumber()) {
                sum += node.canConvertToLong() ? INTEGER : DECIMAL;
            } else if (node.isNumber()) {
                sum += DECIMAL;
            }
        }
        return sum;
    }

    private static boolean isLatin1(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) > 0xFF) {
                return false;
            }
        }
        return true;
    }

    /** The counting pass; tolerant: bytes that are not JSON are counted as whatever they look like. */
    private static final class Counter {
        /** Bytes a string may hold without ending it, escaping or being non-ASCII. */
        private static final boolean[] PLAIN = new boolean[256];
        private static final VarHandle WORDS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
        private static final long ONES = 0x0101010101010101L;
        private static final long HIGH_BITS = 0x8080808080808080L;
        private static final long QUOTES = 0x2222222222222222L;
        private static final long BACKSLASHES = 0x5C5C5C5C5C5C5C5CL;

        static {
            for (int c = 0; c < 0x80; c++) {
                PLAIN[c] = c != '"' && c != '\\';
            }
        }

        private final byte[] b;
        private final int to;
        private long objects;
        private long emptyObjects;
        private long arrays;
        private long emptyArrays;
        private long colons;
        private long commas;
        private long strings;
        private long nameBytes;
        private long textBytes;
        private long wideTextBytes;
        private long integers;
        private long decimals;
        private int depth;
        private int deepest;
        private int deepestAt = -1;
        private long largestString;
        private long embeddedNodes;
        private long embeddedBytes;
        /** Set to cost the objects of the top-level object maps apart. */
        private ObservedCounter observed;
        /** Whether the value of the current top-level field is an object map. */
        private boolean inMap;

        Counter(byte[] b, int to) {
            this.b = b;
            this.to = to;
        }

        void scan(int from) {
            int i = from;
            while (i < to) {
                switch (b[i]) {
                    case '{' -> {
                        boolean observedStarts = inMap && depth == 3;
                        if (observedStarts) {
                            observed.start(i, this);
                        }
                        objects++;
                        i = opened(i, '}');
                        if (i < 0) {
                            emptyObjects++;
                            i = -i;
                            if (observedStarts) {
                                observed.end(this, i);
                            }
                        }
                    }
                    case '[' -> {
                        arrays++;
                        i = opened(i, ']');
                        if (i < 0) {
                            emptyArrays++;
                            i = -i;
                        }
                    }
                    case '}', ']' -> {
                        depth--;
                        if (depth == 3 && inMap) {
                            observed.end(this, i + 1);
                        }
                        i++;
                    }
                    case ':' -> {
                        colons++;
                        i++;
                    }
                    case ',' -> {
                        commas++;
                        i++;
                    }
                    case '"' -> i = string(i + 1);
                    case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9' -> i = number(i);
                    default -> i++;
                }
            }
        }

        /** Past an opening bracket: the index after it, or minus the index after its closing one when nothing is between them. */
        private int opened(int at, char close) {
            depth++;
            if (depth > deepest) {
                deepest = depth;
                if (depth > JsonScanner.MAX_DEPTH && deepestAt < 0) {
                    deepestAt = at;
                }
            }
            int i = whitespaceEnd(at + 1);
            if (i < to && b[i] == close) {
                depth--;
                return -(i + 1);
            }
            return i;
        }

        private int whitespaceEnd(int i) {
            while (i < to && (b[i] == ' ' || b[i] == '\n' || b[i] == '\r' || b[i] == '\t')) {
                i++;
            }
            return i;
        }

        /** From the first byte of a string's content: the index after its closing quote. */
        private int string(int start) {
            int i = start;
            boolean wide = false;
            boolean embedded = i < to && b[i] == '{';
            long nodes = 0;
            if (!embedded) {
                while (i <= to - Long.BYTES && allPlain((long) WORDS.get(b, i))) {
                    i += Long.BYTES;
                }
            }
            while (i < to) {
                int c = b[i] & 0xFF;
                if (PLAIN[c]) {
                    if (embedded && (c == '{' || c == '[' || c == ':' || c == ',')) {
                        nodes++;
                    }
                    i++;
                } else if (c == '"') {
                    break;
                } else if (c == '\\') {
                    i += 2;
                } else {
                    wide = true;
                    i++;
                }
            }
            int length = Math.min(i, to) - start;
            strings++;
            largestString = Math.max(largestString, length);
            int after = whitespaceEnd(i + 1);
            if (after < to && b[after] == ':') {
                nameBytes += length;
                if (depth == 1 && observed != null) {
                    inMap = isMapField(start, length);
                }
            } else {
                textBytes += length;
                wideTextBytes += wide ? length : 0;
            }
            if (embedded) {
                embeddedNodes += nodes + 1;
                embeddedBytes += length;
            }
            return i + 1;
        }

        /**
         * Whether eight bytes are all {@link #PLAIN}, tested at once: none is a quote or a backslash (no
         * byte of the word XORed with it is zero) and none is from 0x80 up (its high bit). A borrow only
         * starts at a zero byte, so a word is only ever said not to be plain when it is not; the byte
         * loop then finds where.
         */
        private static boolean allPlain(long word) {
            long quotes = word ^ QUOTES;
            long backslashes = word ^ BACKSLASHES;
            return (((quotes - ONES) & ~quotes | (backslashes - ONES) & ~backslashes | word) & HIGH_BITS) == 0;
        }

        private boolean isMapField(int start, int length) {
            for (byte[] field : MAP_FIELDS) {
                if (field.length == length && Arrays.equals(b, start, start + length, field, 0, length)) {
                    return true;
                }
            }
            return false;
        }

        /** The counts so far, in the order {@link #since} reads them. */
        long[] counts() {
            return new long[] {objects, emptyObjects, arrays, emptyArrays, colons, commas, strings, nameBytes, textBytes,
                    wideTextBytes, integers, decimals, embeddedNodes, embeddedBytes};
        }

        /** The census of what was counted since {@code before} ({@link #counts}), {@code bytes} long. */
        JsonCensus since(long[] before, long bytes) {
            Counter part = new Counter(b, to);
            part.objects = objects - before[0];
            part.emptyObjects = emptyObjects - before[1];
            part.arrays = arrays - before[2];
            part.emptyArrays = emptyArrays - before[3];
            part.colons = colons - before[4];
            part.commas = commas - before[5];
            part.strings = strings - before[6];
            part.nameBytes = nameBytes - before[7];
            part.textBytes = textBytes - before[8];
            part.wideTextBytes = wideTextBytes - before[9];
            part.integers = integers - before[10];
            part.decimals = decimals - before[11];
            part.embeddedNodes = embeddedNodes - before[12];
            part.embeddedBytes = embeddedBytes - before[13];
            return part.result(bytes);
        }

        private int number(int start) {
            int i = start;
            boolean decimal = false;
            while (i < to) {
                byte c = b[i];
                if (c == '.' || c == 'e' || c == 'E') {
                    decimal = true;
                } else if (!(c >= '0' && c <= '9' || c == '-' || c == '+')) {
                    break;
                }
                i++;
            }
            if (decimal || i - start > 18) {
                decimals++;
            } else {
                integers++;
            }
            return i;
        }

        JsonCensus result(long bytes) {
            long nonEmptyObjects = objects - emptyObjects;
            long nonEmptyArrays = arrays - emptyArrays;
            long fields = colons;
            long items = Math.max(0, commas - Math.max(0, fields - nonEmptyObjects) + nonEmptyArrays);
            long texts = Math.max(0, strings - fields);
            long values = objects + arrays + texts + integers + decimals;
            return new JsonCensus(bytes, objects, emptyObjects, arrays, emptyArrays, fields, nameBytes, values, items, texts,
                    textBytes, wideTextBytes, integers, decimals, deepest, deepestAt, largestString, embeddedNodes, embeddedBytes);
        }
    }

    /** Costs each observed object apart, as the counting pass opens and closes it. */
    private static final class ObservedCounter {
        private final ToLongFunction<JsonCensus> cost;
        private int[] starts = new int[16];
        private long[] costs = new long[16];
        private int count;
        private long total;
        private long[] before;
        private int start;

        ObservedCounter(ToLongFunction<JsonCensus> cost) {
            this.cost = cost;
        }

        void start(int at, Counter counter) {
            start = at;
            before = counter.counts();
        }

        /** The object opened last ends just before {@code end}. */
        void end(Counter counter, int end) {
            if (before == null) {
                return;
            }
            long bytes = cost.applyAsLong(counter.since(before, end - start));
            before = null;
            if (count == starts.length) {
                starts = Arrays.copyOf(starts, count * 2);
                costs = Arrays.copyOf(costs, count * 2);
            }
            starts[count] = start;
            costs[count] = bytes;
            count++;
            total += bytes;
        }

        Observed result() {
            return new Observed(starts, costs, count, total, cost);
        }
    }
}
