package dev.metahook.internal.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The bytes a tree becomes depend on its content only, and whole numbers are integers ({@link CanonicalJsonPropertyTest}: names in code point order). */
class CanonicalJsonTest {

    private static String canonical(String json) {
        return CanonicalJson.string(Json.parse(json.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void sortsKeysAtEveryLevel() {
        assertEquals("{\"a\":{\"x\":1,\"y\":2},\"b\":[{\"c\":1,\"d\":2}]}", canonical("{\"b\":[{\"d\":2,\"c\":1}],\"a\":{\"y\":2,\"x\":1}}"));
    }

    @Test
    void sortsKeysByCodePointAsGoDoes() {
        // U+FF5E sorts before U+1F600 by code point, after it by UTF-16 unit.
        String written = canonical("{\"\uD83D\uDE00\":4,\"\uFF5E\":3,\"a\":2,\"Z\":1}");
        var names = new ArrayList<String>();
        Json.parse(written.getBytes(StandardCharsets.UTF_8)).fieldNames().forEachRemaining(names::add);
        assertEquals(List.of("Z", "a", "\uFF5E", "\uD83D\uDE00"), names);
    }

    @Test
    void writesWholeNumbersAsIntegers() {
        assertEquals("{\"a\":3,\"b\":0,\"c\":-2,\"d\":1000000}", canonical("{\"a\":3.0,\"b\":0.000,\"c\":-2.0,\"d\":1e6}"));
        ObjectNode fromJava = Json.mapper().valueToTree(Map.of("replicas", 3.0d));
        assertEquals("{\"replicas\":3}", CanonicalJson.string(fromJava));
    }

    @Test
    void keepsFractionsAndHugeNumbersAsGiven() {
        assertEquals("{\"a\":0.5,\"b\":12345678901234567890123,\"c\":1E+400}",
                canonical("{\"a\":0.5,\"b\":12345678901234567890123,\"c\":1e400}"));
    }

    @Test
    void keepsExactDecimals() {
        ObjectNode node = Json.object();
        node.put("cpu", new BigDecimal("0.10"));
        assertEquals("{\"cpu\":0.10}", CanonicalJson.string(node));
    }

    @Test
    void keepsNullsThatWereMeant() {
        assertEquals("{\"creationTimestamp\":null}", canonical("{\"creationTimestamp\":null}"));
    }
}
