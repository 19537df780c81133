package dev.metahook.internal.wire;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.type.LogicalType;
import com.fasterxml.jackson.module.blackbird.BlackbirdModule;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.io.IOException;
import java.util.List;

/**
 * The one Jackson configuration metahook uses, for reading bodies, converting trees to typed objects
 * and back. Floats are read as exact decimals (never {@code Infinity}, never rounded), trailing data
 * is an error, and no scalar silently becomes another type ({@code 3.0} an integer, {@code 3} a
 * string): a spec with the wrong types is reported, not guessed at. Duplicate keys are not looked
 * for: Go's encoder never writes them, and the check cost a tenth of the parse (the last one wins).
 * Bean (de)serialization goes through generated lambdas (Blackbird), not reflection.
 */
public final class Json {
    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .addModule(new BlackbirdModule())
            .addMixIn(ObjectMeta.class, ManagedFieldsUnread.class)
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
            .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
            .withCoercionConfig(LogicalType.Textual, strings -> strings
                    .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail))
            // Kubernetes is written in Go, where a list never holds a null: a null in a list is an error
            // naming its place; a null list of a Kubernetes object is Go's empty one (GoNullLists).
            .withConfigOverride(List.class, list -> list.setSetterInfo(JsonSetter.Value.construct(Nulls.DEFAULT, Nulls.FAIL)))
            .addModule(new SimpleModule("go-null-lists").setDeserializerModifier(new GoNullLists()))
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
            .defaultPropertyInclusion(JsonInclude.Value.construct(JsonInclude.Include.NON_NULL, JsonInclude.Include.ALWAYS))
            .build();

    private Json() {
    }

    /**
     * {@code metadata.managedFields} is not read into typed objects: it is the API server's record of
     * who set which field, nearly half the bytes of an observed child, and no hook acts on it. It is
     * still written when set, and the request's bytes keep it.
     */
    @JsonIgnoreProperties(value = "managedFields", allowGetters = true)
    private abstract static class ManagedFieldsUnread {
    }

    /** The shared mapper; thread-safe, never reconfigured. */
    public static ObjectMapper mapper() {
        return MAPPER;
    }

    /**
     * Parses a request body into a tree, or says in words why it is not JSON. The body is checked by
     * the same scanner as sync requests first: Jackson lets overlong UTF-8 and CESU-8 surrogates through.
     */
    public static JsonNode parse(byte[] body) {
        if (body.length == 0) {
            throw new MalformedRequestException("", "request body is empty");
        }
        if (new JsonScanner(body).skipWhitespace(0) < body.length) {
            JsonScanner.checkWhole(body);
        }
        return parseChecked(body);
    }

    /** Parses bytes already known to be well-formed UTF-8 (text of a Java string, or a checked body). */
    static JsonNode parseChecked(byte[] body) {
        if (body.length == 0) {
            throw new MalformedRequestException("", "request body is empty");
        }
        try (JsonParser parser = MAPPER.createParser(body)) {
            JsonNode node = MAPPER.readTree(parser);
            if (node == null || node.isMissingNode()) {
                throw new MalformedRequestException("", "request body is empty");
            }
            if (parser.nextToken() != null) {
                throw new MalformedRequestException("", "request body is not valid JSON: more data after the first value");
            }
            return node;
        } catch (JsonProcessingException e) {
            throw new MalformedRequestException("", "request body is not valid JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new MalformedRequestException("", "request body could not be read: " + e.getMessage());
        }
    }

    /** An empty object node from the shared factory. */
    public static ObjectNode object() {
        return MAPPER.createObjectNode();
    }

    /** Any value (a fabric8 model object, a map, a record, a tree) as a tree. */
    public static JsonNode tree(Object value) {
        return value instanceof JsonNode node ? node : MAPPER.valueToTree(value);
    }

    /** A tree as a typed value; the caller handles the conversion error. */
    public static <T> T convert(JsonNode tree, Class<T> type) throws JsonProcessingException {
        return MAPPER.treeToValue(tree, type);
    }
}
