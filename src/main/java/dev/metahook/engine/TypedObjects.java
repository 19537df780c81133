package dev.metahook.engine;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.api.TerminalException;
import dev.metahook.wire.Json;
import dev.metahook.wire.MalformedRequestException;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Collection;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Turns the parent (or decorator target) into the controller's type. A parent of another kind is a
 * bad request; a spec whose fields have the wrong types is an invalid spec, which is terminal: the
 * CRD schema normally stops it, and the hook stays safe when it does not.
 */
final class TypedObjects {
    private TypedObjects() {
    }

    static void checkKind(JsonNode parent, Class<? extends HasMetadata> type, JsonNode controller, String field) {
        String kind = parent.path("kind").asText();
        String apiVersion = parent.path("apiVersion").asText();
        if (type != GenericKubernetesResource.class) {
            String expectedKind = HasMetadata.getKind(type);
            String expectedVersion = HasMetadata.getApiVersion(type);
            if (!kind.equals(expectedKind) || expectedVersion != null && !apiVersion.equals(expectedVersion)) {
                throw new MalformedRequestException("/" + field + "/kind", "/" + field + " is " + kind + " " + apiVersion
                        + ", but this controller serves " + expectedKind + " " + expectedVersion);
            }
        }
        JsonNode declared = controller.path("spec").path("parentResource").path("apiVersion");
        if (declared.isTextual() && !declared.textValue().equals(apiVersion)) {
            throw new MalformedRequestException("/" + field + "/apiVersion", "/" + field + " has apiVersion " + apiVersion
                    + ", but the controller's parentResource is " + declared.textValue());
        }
    }

    /** A parent read as its type; {@code invalid} says why its spec had to be left out. */
    record Typed<T>(T object, TerminalException invalid) {
    }

    /**
     * Reads the parent as its type. A status that cannot be read is dropped (the hook rebuilds it); a
     * spec that cannot be read is dropped too and reported as an invalid spec; metadata that cannot
     * be read makes a bad request.
     */
    static <T> Typed<T> read(JsonNode parent, Class<T> type, String field) {
        ObjectNode tree = (ObjectNode) parent;
        TerminalException invalid = null;
        for (int attempt = 0; ; attempt++) {
            try {
                return new Typed<>(convert(tree, type), invalid);
            } catch (JsonMappingException e) {
                String path = path(e);
                String top = path.split("[.\\[]", 2)[0];
                if (top.isEmpty() || top.equals("metadata") || top.equals("apiVersion") || top.equals("kind") || attempt == 2) {
                    throw new MalformedRequestException("/" + field + (path.isEmpty() ? "" : "/" + path.replace('.', '/')),
                            "/" + field + ": cannot be read as " + type.getSimpleName() + ": " + e.getOriginalMessage());
                }
                if (!top.equals("status") && invalid == null) {
                    invalid = new TerminalException("InvalidSpec", path + ": " + expected(e) + ", got " + got(tree, e));
                }
                tree = tree.deepCopy();
                tree.remove(top);
            } catch (JsonProcessingException e) {
                throw new MalformedRequestException("/" + field, "/" + field + ": " + e.getOriginalMessage());
            }
        }
    }

    private static <T> T convert(JsonNode tree, Class<T> type) throws JsonProcessingException {
        Object converted = Json.convert(tree, type);
        if (!type.isInstance(converted)) {
            throw new IllegalStateException(type.getName() + " is read as " + converted.getClass().getSimpleName()
                    + "; annotate it with @JsonDeserialize(using = JsonDeserializer.None.class), as CustomResource is");
        }
        return type.cast(converted);
    }

    private static String path(JsonMappingException e) {
        return e.getPath().stream()
                .map(ref -> ref.getFieldName() != null ? ref.getFieldName() : "[" + ref.getIndex() + "]")
                .collect(Collectors.joining(".")).replace(".[", "[");
    }

    private static String expected(JsonMappingException e) {
        if (!(e instanceof MismatchedInputException mismatch) || mismatch.getTargetType() == null) {
            return "cannot be read";
        }
        Class<?> target = mismatch.getTargetType();
        if (target == Integer.class || target == int.class || target == Long.class || target == long.class
                || target == Short.class || target == short.class) {
            return "must be an integer";
        }
        if (target == Boolean.class || target == boolean.class) {
            return "must be a boolean";
        }
        if (target == String.class || target.isEnum()) {
            return "must be a string";
        }
        if (Collection.class.isAssignableFrom(target) || target.isArray()) {
            return "must be a list";
        }
        if (Number.class.isAssignableFrom(target) || target.isPrimitive()) {
            return "must be a number";
        }
        return Map.class.isAssignableFrom(target) ? "must be an object" : "must be an object (" + target.getSimpleName() + ")";
    }

    private static String got(JsonNode parent, JsonMappingException e) {
        JsonNode node = parent;
        for (JsonMappingException.Reference ref : e.getPath()) {
            node = ref.getFieldName() != null ? node.path(ref.getFieldName()) : node.path(ref.getIndex());
        }
        if (node.isMissingNode()) {
            return "nothing";
        }
        String text = node.isContainerNode() ? (node.isArray() ? "a list" : "an object") : node.toString();
        return text.length() > 64 ? text.substring(0, 64) + "…" : text;
    }
}
