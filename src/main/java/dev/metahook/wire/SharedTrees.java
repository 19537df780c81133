package dev.metahook.wire;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Trees of request parts that come back byte for byte on every call, such as the controller object:
 * each distinct text is parsed once. The trees are shared between calls, so nobody may change them.
 * Holds a bounded number; when full it starts over.
 */
final class SharedTrees {
    static final int CAPACITY = 64;

    private final Map<Text, JsonNode> trees = new ConcurrentHashMap<>();

    /** The tree of {@code body[from, to)}, parsed now or the last time the same bytes came. */
    JsonNode tree(byte[] body, int from, int to) throws IOException {
        Text text = new Text(body, from, to);
        JsonNode tree = trees.get(text);
        if (tree == null) {
            tree = Json.mapper().readTree(body, from, to - from);
            if (trees.size() >= CAPACITY) {
                trees.clear();
            }
            trees.put(new Text(Arrays.copyOfRange(body, from, to), 0, to - from), tree);
        }
        return tree;
    }

    int size() {
        return trees.size();
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
