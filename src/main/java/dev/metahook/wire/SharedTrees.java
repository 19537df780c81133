package dev.metahook.wire;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.Arrays;

/**
 * Trees of request parts that come back byte for byte on every call, such as the controller object:
 * each distinct text is parsed once. The trees are shared between calls, so nobody may change them.
 * A part is looked up by comparing the bytes where it starts with each text kept (a JSON object ends
 * where its text says, so bytes equal to a kept text are that text): a call that carries a known
 * controller passes over its bytes once, in that comparison. Bounded by count and by bytes: a text
 * larger than {@link #LARGEST} is parsed every time and never kept (controller objects are a few KiB;
 * a huge one must not pin its tree in memory), and when the kept texts would pass {@link #CAPACITY}
 * entries or {@link #CAPACITY_BYTES} bytes it starts over. The trees take a few times their text, so
 * the cache holds at most a few MiB of heap.
 */
final class SharedTrees {
    static final int CAPACITY = 64;
    static final int LARGEST = 256 * 1024;
    static final long CAPACITY_BYTES = 2L * 1024 * 1024;

    /** A text kept and its tree. */
    record Kept(byte[] text, JsonNode tree) {
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

    /** The tree of {@code body[from, to)}, parsed now or the last time the same bytes came. */
    JsonNode tree(byte[] body, int from, int to) throws IOException {
        Kept found = at(body, from);
        if (found != null && found.text().length == to - from) {
            return found.tree();
        }
        JsonNode tree = Json.mapper().readTree(body, from, to - from);
        if (to - from <= LARGEST) {
            keep(new Kept(Arrays.copyOfRange(body, from, to), tree));
        }
        return tree;
    }

    private synchronized void keep(Kept text) {
        Kept[] now = kept;
        if (now.length >= CAPACITY || bytes(now) + text.text().length > CAPACITY_BYTES) {
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

    /** The bytes of the texts kept. */
    long bytes() {
        return bytes(kept);
    }

    private static long bytes(Kept[] texts) {
        long sum = 0;
        for (Kept text : texts) {
            sum += text.text().length;
        }
        return sum;
    }
}
