package dev.metahook.internal.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The scanner agrees with Jackson on what is JSON ({@link JsonScannerPropertyTest} on mutated samples too), and finds where each value ends. */
class JsonScannerTest {
    private static final JsonFactory JACKSON = new JsonFactory();
    private static final ObjectMapper MAPPER = new ObjectMapper(JACKSON);
    static final String SAMPLE = "{\"a\": [1, -2.5e+3, 0, true, false, null, \"x\\\"y\\u00e9\\n\"], \"b\": {\"c\": {}, \"d\": []},"
            + " \"\u00e9t\u00e9\": \"\u65e5\u672c \ud83d\ude00\", \"f\": \"{\\\"g\\\": [1, 2], \\\"h\\\": \\\"\\\\u00e9\\\"}\"}";

    @ParameterizedTest
    @ValueSource(strings = {"0", "-0", "1.5", "1e5", "-1E-5", "\"\"", "true", "null", "[]", "{}", "[[[]]]", "{\"a\":{\"b\":[1,{}]}}",
            " {\"a\" : 1 } ", "\"\\u00e9\\ud83d\\ude00\""})
    void acceptsJson(String text) {
        assertTrue(scannerAccepts(text.getBytes(StandardCharsets.UTF_8)), text);
    }

    @ParameterizedTest
    @ValueSource(strings = {"01", "1.", ".5", "1e", "+1", "tru", "nul", "[1,]", "{\"a\":1,}", "{\"a\"}", "{a:1}", "[1 2]", "\"\\x\"",
            "\"\\u12\"", "'a'", "[", "{\"a\":", "\"open", "NaN", "[1]]"})
    void refusesWhatIsNot(String text) {
        assertTrue(!scannerAccepts(text.getBytes(StandardCharsets.UTF_8)), text);
    }

    @Test
    void refusesMalformedUtf8AndRawControlCharacters() {
        for (byte[] text : List.of(new byte[] {'"', (byte) 0xC0, (byte) 0x80, '"'}, new byte[] {'"', (byte) 0xED, (byte) 0xA0, (byte) 0x80, '"'},
                new byte[] {'"', (byte) 0xE6, (byte) 0x97, '"'}, new byte[] {'"', (byte) 0xF5, (byte) 0x80, (byte) 0x80, (byte) 0x80, '"'},
                new byte[] {'"', 0x01, '"'})) {
            assertTrue(!scannerAccepts(text));
        }
    }

    @Test
    void findsTheEndOfEachValueAndReadsNamesAsJacksonDoes() throws IOException {
        byte[] body = SAMPLE.getBytes(StandardCharsets.UTF_8);
        JsonScanner scanner = new JsonScanner(body);
        StringBuilder seen = new StringBuilder();
        int end = scanner.fields(0, (name, start) -> {
            int valueEnd = scanner.valueEnd(start);
            seen.append(name).append('=').append(new String(body, start, valueEnd - start, StandardCharsets.UTF_8)).append('\n');
            return valueEnd;
        });
        assertEquals(body.length, end);
        assertEquals("a=[1, -2.5e+3, 0, true, false, null, \"x\\\"y\\u00e9\\n\"]\nb={\"c\": {}, \"d\": []}\n"
                + "\u00e9t\u00e9=\"\u65e5\u672c \ud83d\ude00\"\nf=\"{\\\"g\\\": [1, 2], \\\"h\\\": \\\"\\\\u00e9\\\"}\"\n", seen.toString());
        byte[] escaped = "\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00\u65e5\"".getBytes(StandardCharsets.UTF_8);
        try (JsonParser parser = JACKSON.createParser(escaped)) {
            parser.nextToken();
            assertEquals(parser.getText(), new JsonScanner(escaped).text(0, escaped.length));
        }
    }

    /** An annotation's JSON, its quotes escaped, is read in one buffer; escapes of non-ASCII take the general way. */
    @ParameterizedTest
    @ValueSource(strings = {"{\\\"a\\\":[1,null],\\\"b\\\":\\\"x\\\\\\\"y\\\"}", "\\u0041\\u007f\\/\\b\\f\\n\\r\\t",
            "ascii then \\u00e9", "\\ud83d\\ude00 \\\"", "caf\u00e9 \\\"q\\\""})
    void readsEscapedStringsAsJacksonDoes(String content) throws IOException {
        byte[] string = ("\"" + content + "\"").getBytes(StandardCharsets.UTF_8);
        try (JsonParser parser = JACKSON.createParser(string)) {
            parser.nextToken();
            assertEquals(parser.getText(), JsonScanner.text(string, 0, string.length));
        }
    }

    @Test
    void refusesNestingDeeperThanTheLimit() {
        byte[] deep = ("[".repeat(JsonScanner.MAX_DEPTH + 1) + "]".repeat(JsonScanner.MAX_DEPTH + 1)).getBytes(StandardCharsets.UTF_8);
        MalformedRequestException e = assertThrows(MalformedRequestException.class, () -> new JsonScanner(deep).valueEnd(0));
        assertTrue(e.getMessage().contains("nested deeper than " + JsonScanner.MAX_DEPTH + " levels"), e.getMessage());
        byte[] limit = ("[".repeat(JsonScanner.MAX_DEPTH) + "]".repeat(JsonScanner.MAX_DEPTH)).getBytes(StandardCharsets.UTF_8);
        assertEquals(limit.length, new JsonScanner(limit).valueEnd(0));
    }

    /**
     * A quote, a backslash, a control character or a non-ASCII byte at any place of a string of
     * plain bytes is found: the valid ones (escapes, UTF-8, DEL, a space) end where the string ends,
     * the others are refused. (Kept from a scan of eight bytes at a time, which measured slower:
     * the string loop no longer inlined into the value loop.)
     */
    @Test
    void everyByteThatEndsAPlainRunIsSeenWhereverItFallsInAWord() {
        byte[][] specials = {{'\\', '"'}, {'\\', 'n'}, {'\\', 'u', '0', '0', 'e', '9'}, {0x01}, {0x1F}, {(byte) 0xC3, (byte) 0xA9},
                {(byte) 0xE6, (byte) 0x97, (byte) 0xA5}, {(byte) 0xC0, (byte) 0x80}, {(byte) 0x80}, {(byte) 0xFF}, {0x7F}, {' '}};
        boolean[] valid = {true, true, true, false, false, true, true, false, false, false, true, true};
        for (int before = 0; before <= 17; before++) {
            for (int after = 0; after <= 9; after++) {
                for (int k = 0; k < specials.length; k++) {
                    byte[] special = specials[k];
                    byte[] text = new byte[before + special.length + after + 2];
                    text[0] = '"';
                    java.util.Arrays.fill(text, 1, text.length - 1, (byte) 'a');
                    System.arraycopy(special, 0, text, 1 + before, special.length);
                    text[text.length - 1] = '"';
                    String shown = before + " + " + java.util.Arrays.toString(special) + " + " + after;
                    assertEquals(valid[k], scannerAccepts(text), shown);
                    if (valid[k]) {
                        byte[] field = ("{\"k\":" + new String(text, StandardCharsets.ISO_8859_1) + ",\"z\":1}").getBytes(StandardCharsets.ISO_8859_1);
                        assertEquals(5 + text.length, new JsonScanner(field).stringEnd(5), shown);
                    }
                }
            }
        }
    }

    static boolean scannerAccepts(byte[] text) {
        JsonScanner scanner = new JsonScanner(text);
        try {
            int start = scanner.skipWhitespace(0);
            return scanner.atEnd(scanner.skipWhitespace(scanner.valueEnd(start)));
        } catch (MalformedRequestException e) {
            return false;
        }
    }

    static boolean jacksonAccepts(byte[] text) {
        try (JsonParser parser = JACKSON.createParser(text)) {
            return MAPPER.readTree(parser) != null && parser.nextToken() == null;
        } catch (IOException e) {
            return false;
        }
    }
}
