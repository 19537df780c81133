package dev.metahook.internal.wire;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The census of a JSON text ({@link JsonCensus}) counted in a pass of its own over the bytes, apart
 * from {@link JsonScanner}: the reference the scanner's census is compared against
 * (JsonScannerPropertyTest), and the census the budget tests price texts by. It only counts, and is
 * tolerant: bytes that are not JSON are counted as whatever they look like. It also counts depth,
 * which the scanner refuses past {@link JsonScanner#MAX_DEPTH} instead.
 */
public final class ReferenceCensus {
    private ReferenceCensus() {
    }

    /** The census of a whole text. */
    public static JsonCensus of(byte[] body) {
        return of(body, 0, body.length);
    }

    /** The census of {@code body[from, to)}. */
    public static JsonCensus of(byte[] body, int from, int to) {
        Counter counter = new Counter(body, to);
        counter.scan(from);
        return counter.result(to - from);
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
