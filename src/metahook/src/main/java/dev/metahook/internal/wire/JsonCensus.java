package dev.metahook.internal.wire;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.Map;

/**
 * What a JSON text holds, and what its trees would take in heap: the measure the memory budget charges
 * a call by and the caches weigh what they keep by. It is counted by {@link JsonScanner} in the pass
 * that checks a request's grammar and finds its parts, before any tree is made (objects, arrays,
 * fields, array items, strings and their bytes, numbers); the tests count it again in a pass of their
 * own and compare. Strings that start with an opening brace (a last-applied annotation holds an object)
 * are also counted as the JSON texts they hold, whose trees a call may build too. The scanner refuses a
 * body nested deeper than {@link #maxDepth()} itself, so it leaves {@link #depth} at 0.
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
}
