package dev.metahook.internal.wire;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.Arrays;

/**
 * Trees of request parts that come back byte for byte on every call, such as the controller object:
 * each distinct text is parsed once. The trees are shared between calls, so nobody may change them.
 * A part is looked up by comparing the bytes where it starts with each text kept (a JSON object ends
 * where its text says, so bytes equal to a kept text are that text): a call that carries a known
 * controller passes over its bytes once, in that comparison. Bounded by count and by heap, weighed as
 * the memory budget weighs a call ({@link JsonCensus}: the kept text plus its tree's estimated heap),
 * not by text length: a text of empty objects takes thirty times its length as a tree. An entry
 * heavier than {@link #LARGEST} is parsed every time and never kept (controller objects weigh tens of
 * KiB; a huge one must not pin its tree in memory), and when the kept ones would pass
 * {@link #CAPACITY} entries or {@link #CAPACITY_BYTES} of heap it starts over.
 */
final class SharedTrees {
    static final int CAPACITY = 64;
    static final long LARGEST = 512 * 1024;
    static final long CAPACITY_BYTES = 4L * 1024 * 1024;

    /** A text kept and its tree. */
    record Kept(byte[] text, JsonNode tree, long heapBytes) {
    }

    private volatile Kept[] kept = new Kept[0];

    /** The kept text that stands at {@code body[from]}, or null. */
    Kept at(byte[] body, int from) {
        for (Kept candidate : kept) {
            byte[] text = candidate.text();
            if (from + text.length <= body.length && Arrays.equals(body, from, from + text.length, text, 0, text.length)) {
                return candidate;
            }
        }
        return null;
    }

    /** The tree of {@code body[from, to)}, whose census the scanner counted, parsed now or the last time the same bytes came. */
    JsonNode tree(byte[] body, int from, int to, JsonCensus census) throws IOException {
        Kept found = at(body, from);
        if (found != null && found.text().length == to - from) {
            return found.tree();
        }
        long weight = (to - from) + census.treeBytes();
        JsonNode tree = Json.mapper().readTree(body, from, to - from);
        if (weight <= LARGEST) {
            keep(new Kept(Arrays.copyOfRange(body, from, to), tree, weight));
        }
        return tree;
    }

    private synchronized void keep(Kept text) {
        Kept[] now = kept;
        if (now.length >= CAPACITY || bytes(now) + text.heapBytes() > CAPACITY_BYTES) {
            now = new Kept[0];
        }
        for (Kept other : now) {
            if (Arrays.equals(other.text(), text.text())) {
                return;
            }
        }
        Kept[] more = Arrays.copyOf(now, now.length + 1);
        more[now.length] = text;
        kept = more;
    }

    int size() {
        return kept.length;
    }

    /** The estimated heap of the texts and trees kept. */
    long bytes() {
        return bytes(kept);
    }

    private static long bytes(Kept[] texts) {
        long sum = 0;
        for (Kept text : texts) {
            sum += text.heapBytes();
        }
        return sum;
    }
}
