package dev.metahook.wire;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Trees of request parts that come back byte for byte on every call, such as the controller object:
 * each distinct text is parsed once. The trees are shared between calls, so nobody may change them.
 * Bounded by count and by bytes: a text larger than {@link #LARGEST} is parsed every time and never
 * kept (controller objects are a few KiB; a huge one must not pin its tree in memory), and when the
 * kept texts would pass {@link #CAPACITY} entries or {@link #CAPACITY_BYTES} bytes it starts over.
 * The trees take a few times their text, so the cache holds at most a few MiB of heap.
 */
final class SharedTrees {
    static final int CAPACITY = 64;
    static final int LARGEST = 256 * 1024;
    static final long CAPACITY_BYTES = 2L * 1024 * 1024;

    private final Map<Text, JsonNode> trees = new ConcurrentHashMap<>();
    private final AtomicLong bytes = new AtomicLong();

    /** The tree of {@code body[from, to)}, parsed now or the last time the same bytes came. */
    JsonNode tree(byte[] body, int from, int to) throws IOException {
        Text text = new Text(body, from, to);
        JsonNode tree = trees.get(text);
        if (tree == null) {
            tree = Json.mapper().readTree(body, from, to - from);
            if (to - from <= LARGEST) {
                keep(new Text(Arrays.copyOfRange(body, from, to), 0, to - from), tree);
            }
        }
        return tree;
    }

    private synchronized void keep(Text text, JsonNode tree) {
        if (trees.size() >= CAPACITY || bytes.get() + text.length() > CAPACITY_BYTES) {
            trees.clear();
            bytes.set(0);
        }
        if (trees.putIfAbsent(text, tree) == null) {
            bytes.addAndGet(text.length());
        }
    }

    int size() {
        return trees.size();
    }

    /** The bytes of the texts kept. */
    long bytes() {
        return bytes.get();
    }

    /** A range of bytes compared by content. */
    private static final class Text {
        private final byte[] bytes;
        private final int from;
        private final int to;
        private final int hash;

        Text(byte[] bytes, int from, int to) {
            this.bytes = bytes;
            this.from = from;
            this.to = to;
            int h = 1;
            for (int i = from; i < to; i++) {
                h = 31 * h + bytes[i];
            }
            this.hash = h;
        }

        int length() {
            return to - from;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Text text && hash == text.hash && Arrays.equals(bytes, from, to, text.bytes, text.from, text.to);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }
}
