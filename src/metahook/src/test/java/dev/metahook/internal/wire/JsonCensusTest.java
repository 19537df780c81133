package dev.metahook.internal.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class JsonCensusTest {
    private static JsonCensus of(String text) {
        return ReferenceCensus.of(text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void countsWhatATreeOfTheTextWouldHold() {
        JsonCensus census = of("{ \"a\" : [ {}, { \"b\": 1 }, [], \"x,y:z\" ], \"c\": 2.5e3, \"d\": true, \"e\": null }");
        assertEquals(3, census.objects());
        assertEquals(1, census.emptyObjects());
        assertEquals(2, census.arrays());
        assertEquals(1, census.emptyArrays());
        assertEquals(5, census.fields(), "a colon inside a string is not a field");
        assertEquals(4, census.items(), "a comma inside a string is not an item");
        assertEquals(1, census.texts());
        assertEquals(5, census.textBytes());
        assertEquals(5, census.nameBytes());
        assertEquals(1, census.integers());
        assertEquals(1, census.decimals());
        assertEquals(3, census.depth());
        assertFalse(census.tooDeep());
    }

    @Test
    void theCensusOfATextAndTheWeightOfItsTreeAgree() {
        String text = "{\"metadata\":{\"name\":\"web\",\"labels\":{\"app\":\"web\"}},\"spec\":{\"ports\":[{\"port\":80},{\"port\":443}],"
                + "\"selector\":{},\"ratio\":0.25,\"tags\":[\"a\",\"b\",\"c\"],\"empty\":[]}}";
        assertEquals(of(text).treeBytes(), JsonCensus.treeBytes(Json.parse(text.getBytes(StandardCharsets.UTF_8))));
    }

    @Test
    void manySmallValuesWeighManyTimesTheirBytesAndOneStringAboutItsBytes() {
        JsonCensus objects = of("[" + "{},".repeat(9_999) + "{}]");
        assertTrue(objects.treeBytes() > 25 * objects.bytes(), objects.treeBytes() + " for " + objects.bytes() + " bytes");
        JsonCensus string = of("\"" + "x".repeat(30_000) + "\"");
        assertTrue(string.treeBytes() < 1.01 * string.bytes(), string.treeBytes() + " for " + string.bytes() + " bytes");
        assertEquals(30_000, string.largestString());
        JsonCensus wide = of("\"" + "é".repeat(15_000) + "\"");
        assertEquals(2 * wide.textBytes(), wide.stringBytes(), "a string beyond ASCII may take two bytes a character");
    }

    @Test
    void aStringHoldingAnObjectIsCountedAsTheTreeItHolds() {
        JsonCensus census = of("{\"annotation\":\"{\\\"a\\\":[1,2,{\\\"b\\\":{}}]}\",\"plain\":\"a, b: c\"}");
        assertEquals(9, census.embeddedNodes(), "the structural bytes of the held text ({ : [ , , { : {), and the text itself");
        assertTrue(census.embeddedTreeBytes() > 0);
        assertEquals(0, of("{\"plain\":\"a, b: c\"}").embeddedNodes());
    }

    @Test
    void findsNestingDeeperThanTheLimitAndWhereItStarts() {
        int limit = JsonCensus.maxDepth();
        JsonCensus atLimit = of("[".repeat(limit) + "]".repeat(limit));
        assertFalse(atLimit.tooDeep());
        assertEquals(limit, atLimit.depth());
        JsonCensus deeper = of("{\"a\":" + "[".repeat(limit + 1) + "]".repeat(limit + 1) + "}");
        assertTrue(deeper.tooDeep());
        assertEquals(5 + limit - 1, deeper.deepestAt(), "the first bracket past the limit");
    }

    @Test
    void neverFailsOnBytesThatAreNotJson() {
        String garbage = "{\"a\": [1, 2,, }} ] \"unterminated";
        JsonCensus census = of(garbage);
        assertEquals(garbage.length(), census.bytes());
        assertTrue(census.treeBytes() > 0);
    }

    @Test
    void textsSideBySideAddUpAndKeepTheirLargestString() {
        String a = "{\"a\":[1,2.5,\"xyz\"],\"b\":{}}";
        String b = "[\"a much longer string\",{\"c\":null}]";
        JsonCensus both = of(a).plus(of(b));
        assertEquals(of(a).treeBytes() + of(b).treeBytes(), both.treeBytes());
        assertEquals(of(a).values() + of(b).values(), both.values());
        assertEquals(a.length() + b.length(), both.bytes());
        assertEquals(of(b).largestString(), both.largestString());
        assertEquals(of(a), of(a).plus(JsonCensus.NOTHING));
    }

    @Test
    void aQuoteABackslashOrAWideByteIsFoundAtEveryPlaceOfAWord() {
        for (int length = 0; length < 24; length++) {
            for (int at = 0; at < length; at++) {
                String plain = "a".repeat(length);
                String escaped = plain.substring(0, at) + "\\\"" + plain.substring(at + 1);
                JsonCensus withEscape = of("{\"k\":\"" + escaped + "\",\"n\":1}");
                assertEquals(2, withEscape.fields(), escaped);
                assertEquals(length + 1, withEscape.textBytes(), "an escaped quote does not end the string: " + escaped);
                assertEquals(0, withEscape.wideTextBytes(), escaped);
                String wide = plain.substring(0, at) + "\u00e9" + plain.substring(at + 1);
                JsonCensus withWide = of("{\"k\":\"" + wide + "\",\"n\":1}");
                assertEquals(length + 1, withWide.textBytes(), wide);
                assertEquals(length + 1, withWide.wideTextBytes(), "a string with a non-ASCII byte is wide: " + wide);
                String ended = plain.substring(0, at) + "\",\"x\":\"" + plain.substring(at);
                JsonCensus twoStrings = of("{\"k\":\"" + ended + "\"}");
                assertEquals(2, twoStrings.fields(), ended);
                assertEquals(length, twoStrings.textBytes(), ended);
                assertEquals(length, twoStrings.largestString() + Math.min(at, length - at), ended);
            }
        }
    }
}
