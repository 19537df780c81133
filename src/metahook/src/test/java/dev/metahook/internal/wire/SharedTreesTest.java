package dev.metahook.internal.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class SharedTreesTest {
    private final SharedTrees trees = new SharedTrees();

    /** The tree of {@code body[from, to)}, priced by the reference census as the scanner would have counted it. */
    private JsonNode tree(byte[] body, int from, int to) throws IOException {
        return trees.tree(body, from, to, ReferenceCensus.of(body, from, to));
    }

    @Test
    void parsesTheSameBytesOnceWhereverTheyStandInTheBody() throws IOException {
        byte[] first = "{\"controller\":{\"spec\":{\"resyncPeriodSeconds\":30}}}".getBytes(StandardCharsets.UTF_8);
        byte[] second = "{ \"controller\" : {\"spec\":{\"resyncPeriodSeconds\":30}} }".getBytes(StandardCharsets.UTF_8);
        JsonNode one = tree(first, 14, first.length - 1);
        JsonNode two = tree(second, 17, second.length - 2);
        assertSame(one, two);
        assertEquals(30, one.at("/spec/resyncPeriodSeconds").intValue());
    }

    @Test
    void findsAKeptTextWhereItStandsWithoutBeingToldWhereItEnds() throws IOException {
        byte[] first = "{\"controller\":{\"spec\":{}}}".getBytes(StandardCharsets.UTF_8);
        JsonNode kept = tree(first, 14, first.length - 1);
        byte[] later = "{\"parent\":{},\"controller\":{\"spec\":{}},\"x\":1}".getBytes(StandardCharsets.UTF_8);
        SharedTrees.Kept found = trees.at(later, 26);
        assertSame(kept, found.tree());
        assertEquals("{\"spec\":{}}", new String(found.text(), StandardCharsets.UTF_8));
        assertNull(trees.at("{\"controller\":{\"spec\":{\"a\":1}}}".getBytes(StandardCharsets.UTF_8), 14));
        assertNull(trees.at("{\"controller\":{\"spec\"".getBytes(StandardCharsets.UTF_8), 14), "a body that ends too early");
    }

    @Test
    void otherBytesGiveAnotherTree() throws IOException {
        byte[] a = "{\"spec\":1}".getBytes(StandardCharsets.UTF_8);
        byte[] b = "{\"spec\":2}".getBytes(StandardCharsets.UTF_8);
        assertNotSame(tree(a, 0, a.length), tree(b, 0, b.length));
        assertEquals(2, tree(b, 0, b.length).path("spec").intValue());
    }

    @Test
    void holdsABoundedNumber() throws IOException {
        for (int i = 0; i < SharedTrees.CAPACITY * 3; i++) {
            byte[] text = ("{\"n\":" + i + "}").getBytes(StandardCharsets.UTF_8);
            assertEquals(i, tree(text, 0, text.length).path("n").intValue());
            assertTrue(trees.size() <= SharedTrees.CAPACITY);
        }
    }

    @Test
    void holdsABoundedHeap() throws IOException {
        // A text of one string weighs about twice its length: the text kept, and the string of its tree.
        String filler = "x".repeat((int) (SharedTrees.LARGEST / 2) - 1000);
        for (int i = 0; i < 40; i++) {
            byte[] text = ("{\"n\":" + i + ",\"a\":\"" + filler + "\"}").getBytes(StandardCharsets.UTF_8);
            assertEquals(i, tree(text, 0, text.length).path("n").intValue());
            assertTrue(trees.size() > 0, "kept");
            assertTrue(trees.bytes() <= SharedTrees.CAPACITY_BYTES, trees.bytes() + " bytes kept");
        }
    }

    @Test
    void neverKeepsAHugeText() throws IOException {
        byte[] huge = ("{\"a\":\"" + "y".repeat((int) SharedTrees.LARGEST) + "\"}").getBytes(StandardCharsets.UTF_8);
        JsonNode first = tree(huge, 0, huge.length);
        assertEquals(SharedTrees.LARGEST, first.path("a").textValue().length());
        assertEquals(0, trees.size());
        assertEquals(0, trees.bytes());
        assertNotSame(first, tree(huge, 0, huge.length));
    }

    @Test
    void neverKeepsASmallTextWhoseTreeIsHuge() throws IOException {
        // 250 KiB of empty objects: eight such controller objects pinned 57 MiB when the bound was the text's length.
        byte[] objects = ("{\"spec\":[" + "{},".repeat(85_000) + "{}]}").getBytes(StandardCharsets.UTF_8);
        assertTrue(objects.length < SharedTrees.LARGEST, objects.length + " bytes");
        assertEquals(85_001, tree(objects, 0, objects.length).path("spec").size());
        assertEquals(0, trees.size(), "its tree weighs about thirty times its text");
    }
}
