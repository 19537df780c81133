package dev.metahook.internal.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * The scanner and Jackson agree on mutations of a sample. A class of its own: a class with both jqwik
 * properties and Jupiter tests is run by both engines, and Surefire's report of it counts only the last.
 */
class JsonScannerPropertyTest {

    /** Mutations of a sample with every kind of token: each accepted exactly when Jackson accepts it. */
    @Property(tries = 3000)
    void acceptsWhatJacksonAccepts(@ForAll("mutations") byte[] text) {
        boolean accepted = JsonScannerTest.jacksonAccepts(text);
        assertEquals(accepted, JsonScannerTest.scannerAccepts(text), () -> new String(text, StandardCharsets.UTF_8));
        Statistics.collect(accepted ? "JSON" : "not JSON");
        Statistics.coverage(coverage -> {
            coverage.check("JSON").count(count -> count >= 200);
            coverage.check("not JSON").count(count -> count >= 200);
        });
    }

    /**
     * What the scanner counts as it passes over a value is what the census's own pass counts (but the
     * depth, which the scanner does not count): the memory budget prices a call by it.
     */
    @Property(tries = 3000, maxDiscardRatio = 10)
    void countsWhatTheCensusCounts(@ForAll("mutations") byte[] text) {
        Assume.that(JsonScannerTest.jacksonAccepts(text));
        assertEquals(withoutDepth(ReferenceCensus.of(text, first(text), end(text))), counted(text), () -> new String(text, StandardCharsets.UTF_8));
    }

    /** The same on the captured objects of real Metacontroller requests: last-applied annotations, managed fields, and all. */
    @Property(tries = 1)
    void countsARealRequestAsTheCensusDoes() throws Exception {
        for (String name : new String[] {"webapp-sync.json", "database-sync.json", "database-finalize.json"}) {
            try (var in = getClass().getResourceAsStream("/warm-up/" + name)) {
                byte[] text = in.readAllBytes();
                assertEquals(withoutDepth(ReferenceCensus.of(text, first(text), end(text))), counted(text), name);
            }
        }
    }

    /**
     * What the scanner reads off a JSON text held in a string as it passes over it (a last-applied
     * annotation: whether a typed model may lose some of it) is what a walk of the unescaped text says,
     * the walk the last-applied check made before; and the string's text is that text.
     */
    @Property(tries = 3000)
    void readsWhatATypedModelMayLoseAsAWalkOfTheTextDoes(@ForAll("heldTexts") String held, @ForAll long seed) {
        byte[] string = quoted(held, new Random(seed));
        JsonScanner scanner = new JsonScanner(string, true);
        assertEquals(string.length, scanner.valueEnd(0));
        boolean loses = mayLoseInTypedForm(held);
        assertEquals(loses, scanner.mayLoseInTypedForm(), () -> new String(string, StandardCharsets.UTF_8));
        assertEquals(held, JsonScanner.text(string, 0, string.length));
        JsonScanner counting = new JsonScanner(string);
        counting.mark();
        assertEquals(string.length, counting.valueEnd(0));
        assertEquals(true, counting.mayLoseInTypedForm(), "a scanner that only counts does not say a text keeps");
        assertEquals(withoutDepth(ReferenceCensus.of(string)), counting.censusSinceMark(0, string.length));
        JsonScanner reading = new JsonScanner(string, true);
        reading.mark();
        reading.valueEnd(0);
        assertEquals(withoutDepth(ReferenceCensus.of(string)), reading.censusSinceMark(0, string.length));
        Statistics.collect(loses ? "may lose" : "keeps");
        Statistics.coverage(coverage -> {
            coverage.check("may lose").count(count -> count >= 300);
            coverage.check("keeps").count(count -> count >= 300);
        });
    }

    /** A string that does not begin with a brace holds no JSON object: the scanner does not say it keeps in typed form. */
    @Property(tries = 300)
    void aStringNotBeginningWithABraceMayLose(@ForAll("heldTexts") String held, @ForAll long seed) {
        byte[] string = quoted(" " + held, new Random(seed));
        JsonScanner scanner = new JsonScanner(string, true);
        scanner.valueEnd(0);
        assertEquals(true, scanner.mayLoseInTypedForm());
    }

    /**
     * The reference: a walk of the text as the last-applied check made it, outside the text's strings
     * a null, an empty object or list, a digit followed by a fraction or an exponent.
     */
    private static boolean mayLoseInTypedForm(String json) {
        boolean inString = false;
        char previous = 0;
        for (int i = 0; i < json.length(); i++) {
            char c = json.charAt(i);
            if (inString) {
                if (c == '\\') {
                    i++;
                } else if (c == '"') {
                    inString = false;
                }
            } else if (c == '"') {
                inString = true;
            } else if (c == 'n' || (c == '.' || c == 'e' || c == 'E') && Character.isDigit(previous)
                    || c == '}' && previous == '{' || c == ']' && previous == '[') {
                return true;
            }
            previous = c;
        }
        return false;
    }

    /**
     * {@code text} as a JSON string, escaped as it must be, and now and then where it need not be
     * ({@code \\uXXXX}, {@code \\/}); but its first character, the brace the scanner knows a JSON text
     * by (an escaped one it does not read, and says the string may lose: the slower path, never a wrong answer).
     */
    private static byte[] quoted(String text, Random random) {
        StringBuilder out = new StringBuilder("\"");
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20 || i > 0 && random.nextInt(10) == 0) {
                out.append(String.format("\\u%04x", (int) c));
                if (Character.isHighSurrogate(c)) {
                    out.append(String.format("\\u%04x", (int) text.charAt(++i)));
                }
            } else if (c == '/' && random.nextBoolean()) {
                out.append("\\/");
            } else {
                out.append(c);
                if (Character.isHighSurrogate(c)) {
                    out.append(text.charAt(++i));
                }
            }
        }
        return out.append('"').toString().getBytes(StandardCharsets.UTF_8);
    }

    /** JSON-like texts that begin with a brace, from the characters that matter to the walk, with escapes, UTF-8 and a pair. */
    @Provide
    Arbitrary<String> heldTexts() {
        return Arbitraries.strings().withChars("{}[]:,\"\\ .0123456789eEnul/\t\u00e9\u20ac").ofMaxLength(24)
                .map(text -> "{" + text.replace("u", "\ud83d\ude00"));
    }

    private static int first(byte[] text) {
        return new JsonScanner(text).skipWhitespace(0);
    }

    private static int end(byte[] text) {
        return new JsonScanner(text).valueEnd(first(text));
    }

    private static JsonCensus counted(byte[] text) {
        JsonScanner scanner = new JsonScanner(text);
        int start = scanner.skipWhitespace(0);
        scanner.mark();
        int end = scanner.valueEnd(start);
        return scanner.censusSinceMark(start, end);
    }

    private static JsonCensus withoutDepth(JsonCensus c) {
        return new JsonCensus(c.bytes(), c.objects(), c.emptyObjects(), c.arrays(), c.emptyArrays(), c.fields(), c.nameBytes(), c.values(),
                c.items(), c.texts(), c.textBytes(), c.wideTextBytes(), c.integers(), c.decimals(), 0, -1, c.largestString(),
                c.embeddedNodes(), c.embeddedBytes());
    }

    @Provide
    Arbitrary<byte[]> mutations() {
        byte[] sample = JsonScannerTest.SAMPLE.getBytes(StandardCharsets.UTF_8);
        String alphabet = "{}[]:,\"\\ -+.0123456789eEtruefalsn\u0001\t";
        return Arbitraries.longs().map(seed -> {
            Random random = new Random(seed);
            StringBuilder out = new StringBuilder(new String(sample, StandardCharsets.ISO_8859_1));
            for (int edits = 1 + random.nextInt(3); edits > 0; edits--) {
                int at = random.nextInt(out.length());
                char c = alphabet.charAt(random.nextInt(alphabet.length()));
                switch (random.nextInt(3)) {
                    case 0 -> out.insert(at, c);
                    case 1 -> out.deleteCharAt(at);
                    default -> out.setCharAt(at, c);
                }
            }
            return out.toString().getBytes(StandardCharsets.ISO_8859_1);
        });
    }
}
