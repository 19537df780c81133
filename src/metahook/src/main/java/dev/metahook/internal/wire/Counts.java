package dev.metahook.internal.wire;

/**
 * What {@link JsonScanner} has passed over so far, by kind: running totals that a {@link JsonCensus}
 * is the difference of. The scanner feeds it as it checks the grammar ({@link #object}, {@link #name},
 * ...), and {@link #census} takes the census of what was scanned since a copy of the totals was made
 * ({@link #copyTo}). Mutable, and reused for every part of a body: a census is taken for every observed
 * object, so a copy allocates nothing.
 */
final class Counts {
    private long objects;
    private long emptyObjects;
    private long arrays;
    private long emptyArrays;
    private long fields;
    private long nameBytes;
    private long items;
    private long texts;
    private long textBytes;
    private long wideTextBytes;
    private long integers;
    private long decimals;
    private long embeddedNodes;
    private long embeddedBytes;
    /** The longest name or string since the totals were last copied. */
    private long largestString;

    void object() {
        objects++;
    }

    void emptyObject() {
        emptyObjects++;
    }

    void array() {
        arrays++;
    }

    void emptyArray() {
        emptyArrays++;
    }

    void item() {
        items++;
    }

    /** A field name of {@code length} bytes (between its quotes). */
    void name(long length) {
        fields++;
        nameBytes += length;
        largestString = Math.max(largestString, length);
    }

    /** A string value of {@code length} bytes, counted twice when it is {@code wide} (not ASCII: two bytes a character in the heap). */
    void text(long length, boolean wide) {
        texts++;
        textBytes += length;
        if (wide) {
            wideTextBytes += length;
        }
        largestString = Math.max(largestString, length);
    }

    void number(boolean decimal) {
        if (decimal) {
            decimals++;
        } else {
            integers++;
        }
    }

    /** A JSON text held in a string: its {@code nodes} (structural bytes) and its {@code bytes}. */
    void heldText(long nodes, long bytes) {
        embeddedNodes += nodes;
        embeddedBytes += bytes;
    }

    /** Copies these totals into {@code mark}, and starts the longest string over, for a later {@link #census}. */
    void copyTo(Counts mark) {
        mark.objects = objects;
        mark.emptyObjects = emptyObjects;
        mark.arrays = arrays;
        mark.emptyArrays = emptyArrays;
        mark.fields = fields;
        mark.nameBytes = nameBytes;
        mark.items = items;
        mark.texts = texts;
        mark.textBytes = textBytes;
        mark.wideTextBytes = wideTextBytes;
        mark.integers = integers;
        mark.decimals = decimals;
        mark.embeddedNodes = embeddedNodes;
        mark.embeddedBytes = embeddedBytes;
        largestString = 0;
    }

    /** The census of what was counted since {@code mark} was copied: {@code bytes} of text. */
    JsonCensus census(Counts mark, long bytes) {
        long objectsSince = objects - mark.objects;
        long arraysSince = arrays - mark.arrays;
        long textsSince = texts - mark.texts;
        long integersSince = integers - mark.integers;
        long decimalsSince = decimals - mark.decimals;
        return new JsonCensus(bytes, objectsSince, emptyObjects - mark.emptyObjects, arraysSince, emptyArrays - mark.emptyArrays,
                fields - mark.fields, nameBytes - mark.nameBytes, objectsSince + arraysSince + textsSince + integersSince + decimalsSince,
                items - mark.items, textsSince, textBytes - mark.textBytes, wideTextBytes - mark.wideTextBytes, integersSince,
                decimalsSince, 0, -1, largestString, embeddedNodes - mark.embeddedNodes, embeddedBytes - mark.embeddedBytes);
    }
}
