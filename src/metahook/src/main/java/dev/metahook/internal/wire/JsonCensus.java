package dev.metahook.internal.wire;

import com.fasterxml.jackson.databind.JsonNode;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.Map;

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
 * <p>A hook request is counted in parts ({@link CallBudget}): the fields a call parses as trees before
 * it is answered, and each observed object on its own when the controller first reads it.
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

    /** The census of no bytes at all. */
    public static final JsonCensus NOTHING = new JsonCensus(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1, 0, 0, 0);

    /** The census of this text and {@code other} side by side: counts added, the deepest and the largest kept. */
    public JsonCensus plus(JsonCensus other) {
        return new JsonCensus(bytes + other.bytes, objects + other.objects, emptyObjects + other.emptyObjects, arrays + other.arrays,
                emptyArrays + other.emptyArrays, fields + other.fields, nameBytes + other.nameBytes, values + other.values,
                items + other.items, texts + other.texts, textBytes + other.textBytes, wideTextBytes + other.wideTextBytes,
                integers + other.integers, decimals + other.decimals, Math.max(depth, other.depth),
                deepestAt >= 0 ? deepestAt : other.deepestAt, Math.max(largestString, other.largestString),
                embeddedNodes + other.embeddedNodes, embeddedBytes + other.embeddedBytes);
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

        Counter(byte[] b, int to) {
            this.b = b;
            this.to = to;
        }

        void scan(int from) {
            int i = from;
            while (i < to) {
                switch (b[i]) {
                    case '{' -> {
                        objects++;
                        i = opened(i, '}');
                        if (i < 0) {
                            emptyObjects++;
                            i = -i;
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
}
