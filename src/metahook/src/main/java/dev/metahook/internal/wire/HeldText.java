package dev.metahook.internal.wire;

/**
 * Reads a JSON text held in a string (a last-applied annotation holds an object) in the scanner's one
 * pass over the string: its nodes are counted by its structural bytes outside escapes (a name's too),
 * and, for a reader made to read them, what a typed model may lose is looked for outside the text's
 * own strings ({@link JsonScanner#mayLoseInTypedForm}). Looking costs a fifth more than counting, so
 * the request's pass over every child only counts; the pass over the few objects whose parts a call
 * asks for reads.
 */
final class HeldText {
    /**
     * What a plain byte of a held text is to a reader that reads ({@link #READING}) or only counts ({@link
     * #COUNTING}): one counted as a node (brace, bracket, colon, comma), one that may begin what a typed model
     * loses ({@link #losesAt}; none for a reader that only counts, so its loop tests no more than a node), or
     * neither (0).
     */
    private static final byte[] READING = new byte[256];
    private static final byte[] COUNTING = new byte[256];
    private static final byte NODE = 1;
    private static final byte LOSSY = 2;

    static {
        for (char c : "{[:,".toCharArray()) {
            READING[c] = NODE;
            COUNTING[c] = NODE;
        }
        for (char c : "n.eE}]".toCharArray()) {
            READING[c] = LOSSY;
        }
    }

    private final JsonScanner scanner;
    private final boolean reads;
    private final byte[] kinds;
    /** Whether the text read last may lose something in a typed model. */
    private boolean mayLose = true;

    HeldText(JsonScanner scanner, boolean reads) {
        this.scanner = scanner;
        this.reads = reads;
        this.kinds = reads ? READING : COUNTING;
    }

    /**
     * The end of the string that starts (with its quote) at {@code start} and holds a text beginning with
     * a brace: just after its closing quote. Its grammar as a string is checked; its nodes and bytes go
     * to {@code counts}.
     */
    int end(int start, Counts counts) {
        byte[] body = scanner.body();
        byte[] kinds = this.kinds;
        int i = start + 1;
        long nodes = 1;
        boolean loses = false;
        boolean quoted = false;
        int afterEscape = -1;
        int escapedChar = 0;
        int afterBackslash = -1;
        while (true) {
            if (i >= body.length) {
                throw scanner.invalid(i, "the body ends too early");
            }
            int c = body[i] & 0xFF;
            if (JsonScanner.isPlain(c)) {
                byte kind = kinds[c];
                if (kind == NODE) {
                    nodes++;
                } else if (kind == LOSSY && !quoted && !loses) {
                    loses = losesAt(i == afterEscape ? escapedChar : body[i - 1], c);
                }
                i++;
            } else if (c == '"') {
                counts.heldText(nodes, i - start - 1);
                mayLose = !reads || loses;
                return i + 1;
            } else if (c == '\\' && reads) {
                int next = scanner.escapeEnd(i);
                int unescaped = JsonScanner.unescaped(body, i);
                if (quoted) {
                    if (i != afterBackslash) {
                        quoted = unescaped != '"';
                        afterBackslash = unescaped == '\\' ? next : -1;
                    }
                } else if (unescaped == '"') {
                    quoted = true;
                } else if (!loses) {
                    loses = losesAt(i == afterEscape ? escapedChar : body[i - 1], unescaped);
                }
                escapedChar = unescaped;
                afterEscape = next;
                i = next;
            } else {
                i = scanner.pastNonPlain(i, c);
            }
        }
    }

    /** Whether the text read last may hold what a typed model does not give back: always, for a reader that only counts. */
    boolean mayLose() {
        return mayLose;
    }

    /**
     * Whether a character of a held text, outside the text's own strings, after {@code previous}, begins
     * what a typed model may not give back: a null, an empty object or list, a number's fraction or
     * exponent.
     */
    private static boolean losesAt(int previous, int c) {
        return switch (c) {
            case 'n' -> true;
            case '.', 'e', 'E' -> previous >= '0' && previous <= '9';
            case '}' -> previous == '{';
            case ']' -> previous == '[';
            default -> false;
        };
    }
}
