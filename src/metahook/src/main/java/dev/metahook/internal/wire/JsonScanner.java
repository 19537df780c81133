package dev.metahook.internal.wire;

import java.nio.charset.StandardCharsets;

/**
 * Finds where JSON values begin and end in a request body, checking their grammar (RFC 8259:
 * structure, literals, numbers, string escapes, no raw control characters, well-formed UTF-8) without
 * building anything. The request decoder uses it for the parts of a body it keeps as bytes: a
 * streaming parser would tokenize and intern every field name of a child nobody reads, which cost
 * as much as parsing it. Not thread-safe: one scanner per body.
 *
 * <p>As it passes over values it feeds what their trees would hold to its {@link Counts} (the request's
 * only count of it, checked against a reference count in the tests), and a string that holds a JSON
 * text to its {@link HeldText} reader: {@link #mark} and {@link #censusSinceMark} give the census of
 * what was scanned in between (a field parsed as a tree, an observed object), so what a call builds is
 * priced without passing over its bytes again. {@link #valueEnd} counts the whole value; {@link
 * #fieldSpans} counts its object and field names, and its visitor the values. The census's depth is not
 * counted: the scanner refuses a body nested too deep itself.
 */
final class JsonScanner {
    /** Deeper than this is refused (400): Kubernetes objects nest a few tens of levels; every tree walk pays for depth. */
    static final int MAX_DEPTH = 200;

    /** The bytes a string may hold as they are: printable ASCII but the quote and the backslash. */
    private static final boolean[] PLAIN = new boolean[256];
    private static final boolean[] ESCAPES = new boolean[256];

    static {
        for (int c = 0x20; c < 0x80; c++) {
            PLAIN[c] = c != '"' && c != '\\';
        }
        for (char c : "\"\\/bfnrt".toCharArray()) {
            ESCAPES[c] = true;
        }
    }

    private final byte[] body;
    private final int limit;
    private final long[] arrays = new long[(MAX_DEPTH + 63) / 64];
    /** The counts so far, and at the last {@link #mark}. */
    private final Counts counts = new Counts();
    private final Counts mark = new Counts();
    private final HeldText heldText;
    /** Whether the string {@link #stringEnd} passed over last holds a byte from 0x80 up. */
    private boolean wide;
    /** {@link #mayLoseInTypedForm} of the string passed over last. */
    private boolean lossy;

    JsonScanner(byte[] body) {
        this(body, false);
    }

    /** A scanner that, when {@code readsHeldTexts}, reads the JSON texts held in strings for {@link #mayLoseInTypedForm}. */
    JsonScanner(byte[] body, boolean readsHeldTexts) {
        this.body = body;
        this.limit = body.length;
        this.heldText = new HeldText(this, readsHeldTexts);
    }

    /**
     * Checks that a whole body is one JSON value (whitespace around it allowed) under the same rules
     * as every other body: the one UTF-8 rule for every part of every request.
     */
    static void checkWhole(byte[] body) {
        JsonScanner scanner = new JsonScanner(body);
        int end = scanner.skipWhitespace(scanner.valueEnd(scanner.skipWhitespace(0)));
        if (!scanner.atEnd(end)) {
            throw new MalformedRequestException("", "request body is not valid JSON: more data after the first value");
        }
    }

    byte[] body() {
        return body;
    }

    /** Whether a string may hold byte {@code c} as it is: printable ASCII but the quote and the backslash. */
    static boolean isPlain(int c) {
        return PLAIN[c];
    }

    /** The index of the first byte at or after {@code i} that is not JSON whitespace. */
    int skipWhitespace(int i) {
        while (i < limit) {
            byte c = body[i];
            if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
                return i;
            }
            i++;
        }
        return i;
    }

    boolean atEnd(int i) {
        return i >= limit;
    }

    byte at(int i) {
        if (i >= limit) {
            throw invalid(i, "the body ends too early");
        }
        return body[i];
    }

    /** What the value starting at {@code i} is, in words: "an object", "a string", ... */
    String describe(int i) {
        return switch (at(i)) {
            case '{' -> "an object";
            case '[' -> "an array";
            case '"' -> "a string";
            case 't', 'f' -> "a boolean";
            case 'n' -> "null";
            default -> "a number";
        };
    }

    /**
     * Marks what is counted so far, for {@link #censusSinceMark}; the longest string starts over from
     * here. One mark at a time: the parts a call prices (a tree field, an observed object) never nest.
     */
    void mark() {
        counts.copyTo(mark);
    }

    /** The census of what was scanned since the last {@link #mark}: the value (or values) in {@code body[from, to)}. */
    JsonCensus censusSinceMark(int from, int to) {
        return counts.census(mark, to - from);
    }

    boolean isNull(int i) {
        return i < limit && body[i] == 'n';
    }

    /** The index just after the value that starts at {@code start} (no whitespace before it). */
    int valueEnd(int start) {
        Counts counts = this.counts;
        int depth = 0;
        int i = start;
        while (true) {
            byte c = at(i);
            boolean closed = true;
            switch (c) {
                case '{' -> {
                    depth = open(depth, i, false);
                    counts.object();
                    i = skipWhitespace(i + 1);
                    if (at(i) == '}') {
                        counts.emptyObject();
                        depth--;
                        i++;
                    } else {
                        i = afterKey(i);
                        closed = false;
                    }
                }
                case '[' -> {
                    depth = open(depth, i, true);
                    counts.array();
                    i = skipWhitespace(i + 1);
                    if (at(i) == ']') {
                        counts.emptyArray();
                        depth--;
                        i++;
                    } else {
                        counts.item();
                        closed = false;
                    }
                }
                case '"' -> i = textEnd(i);
                case 't' -> i = literal(i, "true");
                case 'f' -> i = literal(i, "false");
                case 'n' -> i = literal(i, "null");
                default -> i = countedNumberEnd(i);
            }
            while (closed) {
                if (depth == 0) {
                    return i;
                }
                boolean array = isArray(depth - 1);
                i = skipWhitespace(i);
                byte next = at(i);
                if (next == ',') {
                    i = skipWhitespace(i + 1);
                    if (array) {
                        counts.item();
                    } else {
                        i = afterKey(i);
                    }
                    closed = false;
                } else if (next == (array ? ']' : '}')) {
                    depth--;
                    i++;
                } else {
                    throw invalid(i, "expected ',' or '" + (array ? ']' : '}') + "', got " + shown(next));
                }
            }
            i = skipWhitespace(i);
        }
    }

    /** Visits one field of an object and says where its value ends. */
    @FunctionalInterface
    interface FieldVisitor {
        /** @return the index just after the value, which starts at {@code valueStart} */
        int field(String name, int valueStart);
    }

    /** Visits one field of an object by where its name and value are, without making a string of the name. */
    @FunctionalInterface
    interface FieldSpanVisitor {
        /** @return the index just after the value, which starts at {@code valueStart} */
        int field(int nameStart, int nameEnd, int valueStart);
    }

    /**
     * Walks the fields of the object that starts at {@code start}, in order (a repeated name is
     * visited again); returns the index just after the object.
     */
    int fields(int start, FieldVisitor visitor) {
        return fieldSpans(start, (nameStart, nameEnd, valueStart) -> visitor.field(text(nameStart, nameEnd), valueStart));
    }

    /** {@link #fields} with the name as a span of the body ({@link #textEquals} compares it). */
    int fieldSpans(int start, FieldSpanVisitor visitor) {
        counts.object();
        int i = skipWhitespace(start + 1);
        if (at(i) == '}') {
            counts.emptyObject();
            return i + 1;
        }
        while (true) {
            int nameStart = i;
            int nameEnd = nameEnd(i);
            i = skipWhitespace(nameEnd);
            if (at(i) != ':') {
                throw invalid(i, "expected ':' after a field name, got " + shown(body[i]));
            }
            i = skipWhitespace(visitor.field(nameStart, nameEnd, skipWhitespace(i + 1)));
            byte next = at(i);
            if (next == '}') {
                return i + 1;
            }
            if (next != ',') {
                throw invalid(i, "expected ',' or '}', got " + shown(next));
            }
            i = skipWhitespace(i + 1);
        }
    }

    /** The end of the string that starts (with its quote) at {@code start}: just after its closing quote. */
    int stringEnd(int start) {
        if (at(start) != '"') {
            throw invalid(start, "expected a string, got " + shown(body[start]));
        }
        byte[] b = body;
        int i = start + 1;
        wide = false;
        lossy = true;
        while (true) {
            while (i < limit && PLAIN[b[i] & 0xFF]) {
                i++;
            }
            int c = at(i) & 0xFF;
            if (c == '"') {
                return i + 1;
            }
            i = pastNonPlain(i, c);
        }
    }

    /**
     * Past a byte {@code c} inside a string that is neither plain nor its closing quote: an escape, a
     * multi-byte UTF-8 sequence (the string is then {@link #wide}), or a raw control character (refused).
     */
    int pastNonPlain(int i, int c) {
        if (c == '\\') {
            return escapeEnd(i);
        }
        if (c < 0x20) {
            throw invalid(i, "a control character inside a string must be escaped");
        }
        wide = true;
        return utf8End(i, c);
    }

    /**
     * Whether the string between {@code start} (its opening quote) and {@code end} (just after its
     * closing quote) is {@code expected}; compares bytes unless the string has escapes or non-ASCII.
     */
    boolean textEquals(int start, int end, String expected) {
        int from = start + 1;
        int length = end - 1 - from;
        for (int k = 0; k < length; k++) {
            byte c = body[from + k];
            if (c == '\\' || c < 0) {
                return text(start, end).equals(expected);
            }
        }
        if (length != expected.length()) {
            return false;
        }
        for (int k = 0; k < length; k++) {
            if (body[from + k] != expected.charAt(k)) {
                return false;
            }
        }
        return true;
    }

    /** The text of the string between {@code start} (its opening quote) and {@code end} (just after its closing quote). */
    String text(int start, int end) {
        return text(body, start, end);
    }

    /**
     * The same for a string of a body scanned before: its bytes are known to be well-formed. One pass
     * into characters: escapes through {@link #unescaped}, UTF-8 sequences decoded (a character, or two
     * for one above U+FFFF); never more characters than bytes.
     */
    static String text(byte[] body, int start, int end) {
        int from = start + 1;
        int to = end - 1;
        int i = from;
        while (i < to && body[i] != '\\' && body[i] >= 0) {
            i++;
        }
        if (i == to) {
            return new String(body, from, to - from, StandardCharsets.ISO_8859_1);
        }
        char[] out = new char[to - from];
        int length = 0;
        for (int k = from; k < i; k++) {
            out[length++] = (char) body[k];
        }
        while (i < to) {
            int c = body[i] & 0xFF;
            if (c == '\\') {
                out[length++] = (char) unescaped(body, i);
                i += body[i + 1] == 'u' ? 6 : 2;
            } else if (c < 0x80) {
                out[length++] = (char) c;
                i++;
            } else if (c < 0xE0) {
                out[length++] = (char) ((c & 0x1F) << 6 | body[i + 1] & 0x3F);
                i += 2;
            } else if (c < 0xF0) {
                out[length++] = (char) ((c & 0x0F) << 12 | (body[i + 1] & 0x3F) << 6 | body[i + 2] & 0x3F);
                i += 3;
            } else {
                int point = (c & 0x07) << 18 | (body[i + 1] & 0x3F) << 12 | (body[i + 2] & 0x3F) << 6 | body[i + 3] & 0x3F;
                length += Character.toChars(point, out, length);
                i += 4;
            }
        }
        return new String(out, 0, length);
    }

    /** The character (a UTF-16 unit) the well-formed escape at {@code body[i]} (its backslash) stands for. */
    static int unescaped(byte[] body, int i) {
        return switch (body[i + 1]) {
            case 'b' -> '\b';
            case 'f' -> '\f';
            case 'n' -> '\n';
            case 'r' -> '\r';
            case 't' -> '\t';
            case 'u' -> Character.digit(body[i + 2], 16) << 12 | Character.digit(body[i + 3], 16) << 8
                    | Character.digit(body[i + 4], 16) << 4 | Character.digit(body[i + 5], 16);
            default -> body[i + 1];
        };
    }

    MalformedRequestException invalid(int at, String reason) {
        return new MalformedRequestException("", "request body is not valid JSON: " + reason + " (at byte " + at + ")");
    }

    private int open(int depth, int at, boolean array) {
        if (depth >= MAX_DEPTH) {
            throw invalid(at, "nested deeper than " + MAX_DEPTH + " levels");
        }
        if (array) {
            arrays[depth >>> 6] |= 1L << depth;
        } else {
            arrays[depth >>> 6] &= ~(1L << depth);
        }
        return depth + 1;
    }

    private boolean isArray(int level) {
        return (arrays[level >>> 6] & (1L << level)) != 0;
    }

    /** At a key's quote: the index of the value after the key and its colon. */
    private int afterKey(int i) {
        if (at(i) != '"') {
            throw invalid(i, "expected a field name in quotes, got " + shown(body[i]));
        }
        i = skipWhitespace(nameEnd(i));
        if (at(i) != ':') {
            throw invalid(i, "expected ':' after a field name, got " + shown(body[i]));
        }
        return skipWhitespace(i + 1);
    }

    /** {@link #stringEnd} of a field name, counted as one. */
    private int nameEnd(int start) {
        int end = countedStringEnd(start);
        counts.name(end - start - 2);
        return end;
    }

    /**
     * {@link #stringEnd} of a string value, counted as one: its bytes (twice when it is not ASCII), and
     * the JSON text it may hold (a last-applied annotation).
     */
    private int textEnd(int start) {
        int end = countedStringEnd(start);
        counts.text(end - start - 2, wide);
        return end;
    }

    /** {@link #stringEnd}, or, when the string starts with a brace, its {@link HeldText} reader's end of it. */
    private int countedStringEnd(int start) {
        if (start + 1 >= limit || body[start + 1] != '{') {
            return stringEnd(start);
        }
        wide = false;
        int end = heldText.end(start, counts);
        lossy = heldText.mayLose();
        return end;
    }

    /**
     * Whether the string passed over last may hold what a typed model does not give back (a null, an
     * empty object or list, a number with a fraction or an exponent): false only for a string holding
     * a JSON text (it begins with a brace, as a last-applied annotation does) with none of these outside
     * its own strings, read by a scanner made to read them. A string that merely looks like such text
     * only costs its reader the slower path.
     */
    boolean mayLoseInTypedForm() {
        return lossy;
    }

    /** {@link #numberEnd}, counted as an integer, or as a decimal when it has a fraction or an exponent or more than 18 characters. */
    private int countedNumberEnd(int start) {
        int end = numberEnd(start);
        boolean decimal = end - start > 18;
        for (int k = start; k < end && !decimal; k++) {
            byte c = body[k];
            decimal = c == '.' || c == 'e' || c == 'E';
        }
        counts.number(decimal);
        return end;
    }

    int escapeEnd(int i) {
        byte escaped = at(i + 1);
        if (escaped == 'u') {
            for (int k = i + 2; k < i + 6; k++) {
                if (Character.digit(at(k), 16) < 0) {
                    throw invalid(k, "\\u must be followed by four hexadecimal digits");
                }
            }
            return i + 6;
        }
        if (!ESCAPES[escaped & 0xFF]) {
            throw invalid(i, "unknown escape \\" + (char) escaped);
        }
        return i + 2;
    }

    /** Checks one multi-byte UTF-8 sequence (no overlong forms, no surrogates, nothing above U+10FFFF). */
    private int utf8End(int i, int lead) {
        int length;
        int low = 0x80;
        int high = 0xBF;
        if (lead >= 0xC2 && lead <= 0xDF) {
            length = 2;
        } else if (lead >= 0xE0 && lead <= 0xEF) {
            length = 3;
            low = lead == 0xE0 ? 0xA0 : 0x80;
            high = lead == 0xED ? 0x9F : 0xBF;
        } else if (lead >= 0xF0 && lead <= 0xF4) {
            length = 4;
            low = lead == 0xF0 ? 0x90 : 0x80;
            high = lead == 0xF4 ? 0x8F : 0xBF;
        } else {
            throw invalid(i, "not UTF-8");
        }
        for (int k = 1; k < length; k++) {
            int next = at(i + k) & 0xFF;
            if (next < (k == 1 ? low : 0x80) || next > (k == 1 ? high : 0xBF)) {
                throw invalid(i + k, "not UTF-8");
            }
        }
        return i + length;
    }

    private int literal(int i, String word) {
        for (int k = 0; k < word.length(); k++) {
            if (i + k >= limit || body[i + k] != word.charAt(k)) {
                throw invalid(i, "unexpected " + shown(body[Math.min(i + k, limit - 1)]) + "; expected " + word);
            }
        }
        return i + word.length();
    }

    private int numberEnd(int start) {
        int i = start;
        if (at(i) == '-') {
            i++;
        }
        if (at(i) == '0') {
            i++;
        } else if (isDigit(at(i))) {
            i = digitsEnd(i);
        } else {
            throw invalid(start, "unexpected " + shown(body[start]) + "; expected a value");
        }
        if (i < limit && body[i] == '.') {
            i = requiredDigits(i + 1);
        }
        if (i < limit && (body[i] == 'e' || body[i] == 'E')) {
            i++;
            if (i < limit && (body[i] == '+' || body[i] == '-')) {
                i++;
            }
            i = requiredDigits(i);
        }
        return i;
    }

    private int requiredDigits(int i) {
        if (!isDigit(at(i))) {
            throw invalid(i, "a number needs a digit here");
        }
        return digitsEnd(i);
    }

    private int digitsEnd(int i) {
        while (i < limit && isDigit(body[i])) {
            i++;
        }
        return i;
    }

    private static boolean isDigit(byte c) {
        return c >= '0' && c <= '9';
    }

    private static String shown(byte c) {
        return c >= 0x21 && c < 0x7F ? "'" + (char) c + "'" : String.format("byte 0x%02x", c & 0xFF);
    }
}
