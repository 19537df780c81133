package dev.metahook.internal.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.POJONode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Writes a tree as compact JSON whose bytes depend only on its content: object keys sorted by Unicode
 * code point (the order Go's encoding/json uses), and whole numbers written as integers wherever
 * they came from, because Metacontroller compares decoded JSON and {@code 3.0} never equals {@code 3}.
 */
public final class CanonicalJson {
    /** Go writes float64 values below 1e21 without an exponent; whole ones then look like integers. */
    private static final int MAX_PLAIN_INTEGER_DIGITS = 21;

    static final Comparator<String> CODE_POINT_ORDER = CanonicalJson::compareCodePoints;
    private static final Comparator<Map.Entry<String, JsonNode>> FIELD_ORDER = (a, b) -> compareCodePoints(a.getKey(), b.getKey());

    private CanonicalJson() {
    }

    public static byte[] bytes(JsonNode node) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(4096);
        try (JsonGenerator generator = Json.mapper().getFactory().createGenerator(out)) {
            write(generator, node);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    public static String string(JsonNode node) {
        return new String(bytes(node), StandardCharsets.UTF_8);
    }

    private static void write(JsonGenerator out, JsonNode node) throws IOException {
        switch (node.getNodeType()) {
            case OBJECT -> writeObject(out, node);
            case ARRAY -> {
                out.writeStartArray();
                for (JsonNode element : node) {
                    write(out, element);
                }
                out.writeEndArray();
            }
            case NUMBER -> writeNumber(out, node);
            case STRING -> out.writeString(node.textValue());
            case BOOLEAN -> out.writeBoolean(node.booleanValue());
            case BINARY -> out.writeString(node.asText());
            case NULL, MISSING -> out.writeNull();
            case POJO -> write(out, Json.tree(((POJONode) node).getPojo()));
        }
    }

    private static void writeObject(JsonGenerator out, JsonNode node) throws IOException {
        List<Map.Entry<String, JsonNode>> fields = new ArrayList<>(node.size());
        for (Iterator<Map.Entry<String, JsonNode>> it = node.properties().iterator(); it.hasNext(); ) {
            fields.add(it.next());
        }
        fields.sort(FIELD_ORDER);
        out.writeStartObject();
        for (Map.Entry<String, JsonNode> field : fields) {
            out.writeFieldName(field.getKey());
            write(out, field.getValue());
        }
        out.writeEndObject();
    }

    private static void writeNumber(JsonGenerator out, JsonNode node) throws IOException {
        if (node.isIntegralNumber()) {
            if (node.canConvertToLong()) {
                out.writeNumber(node.longValue());
            } else {
                out.writeNumber(node.bigIntegerValue());
            }
            return;
        }
        if ((node.isDouble() || node.isFloat()) && !Double.isFinite(node.doubleValue())) {
            throw new IllegalArgumentException("a number is not finite (" + node.doubleValue() + "); JSON cannot carry it");
        }
        BigDecimal value = node.decimalValue();
        if (isWhole(value) && value.precision() - value.scale() <= MAX_PLAIN_INTEGER_DIGITS) {
            out.writeNumber(value.toBigIntegerExact());
        } else {
            out.writeNumber(value);
        }
    }

    private static boolean isWhole(BigDecimal value) {
        return value.signum() == 0 || value.scale() <= 0 || value.stripTrailingZeros().scale() <= 0;
    }

    /**
     * Code point order from UTF-16 units: the first unit that differs decides, except that a surrogate
     * (part of a code point above U+FFFF) sorts after every unit from U+E000 up: from U+D800 up, units
     * are ranked with the surrogates moved above the rest.
     */
    private static int compareCodePoints(String a, String b) {
        int length = Math.min(a.length(), b.length());
        for (int k = 0; k < length; k++) {
            char ca = a.charAt(k);
            char cb = b.charAt(k);
            if (ca != cb) {
                return ca >= Character.MIN_SURROGATE && cb >= Character.MIN_SURROGATE ? Integer.compare(rank(ca), rank(cb)) : ca - cb;
            }
        }
        return a.length() - b.length();
    }

    private static int rank(char unit) {
        return Character.isSurrogate(unit) ? unit + 0x2000 : unit - 0x800;
    }
}
