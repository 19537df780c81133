package dev.metahook.internal.engine;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.api.RawStatusReader;
import dev.metahook.api.TerminalException;
import dev.metahook.internal.wire.Json;
import dev.metahook.internal.wire.MalformedRequestException;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Collection;
import java.util.Map;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns the parent (or decorator target) into the controller's type. A parent of another kind is a
 * bad request; a spec, or a stored status, whose fields have the wrong types is terminal: the CRD
 * schema normally stops it, and the hook stays safe when it does not.
 */
final class TypedObjects {
    private static final Logger LOG = LoggerFactory.getLogger(TypedObjects.class);

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

    /** A parent read as its type, with why its spec, or its status, had to be left out (null when they were read). */
    record Typed<T>(T object, TerminalException invalidSpec, TerminalException invalidStatus) {

        /** Why the parent cannot be synced: its spec first. */
        TerminalException invalid() {
            return invalidSpec != null ? invalidSpec : invalidStatus;
        }
    }

    /**
     * Reads the parent as its type. A spec that cannot be read is left out and reported as an invalid
     * spec; a status that cannot be read likewise, as an invalid status (never dropped silently: a
     * controller that keeps its progress in the status would start again), unless the controller
     * reads the status raw ({@link RawStatusReader}) or the hook must not depend on it (customize):
     * then {@code leaveOutStatus} and the parent comes without it. When both fail the spec is
     * reported. Metadata that cannot be read makes a bad request.
     */
    static <T> Typed<T> read(JsonNode parent, Class<T> type, String field, boolean leaveOutStatus) {
        ObjectNode tree = (ObjectNode) parent;
        TerminalException spec = null;
        TerminalException status = null;
        for (int attempt = 0; ; attempt++) {
            try {
                return new Typed<>(convert(tree, type), spec, status);
            } catch (JsonMappingException e) {
                String path = path(e);
                String top = path.split("[.\\[]", 2)[0];
                if (top.isEmpty() || top.equals("metadata") || top.equals("apiVersion") || top.equals("kind") || attempt == 2) {
                    throw new MalformedRequestException("/" + field + (path.isEmpty() ? "" : "/" + path.replace('.', '/')),
                            "/" + field + ": cannot be read as " + type.getSimpleName() + ": " + e.getOriginalMessage());
                }
                if (top.equals("status")) {
                    status = unreadableStatus(parent, type, e, leaveOutStatus);
                } else if (spec == null) {
                    spec = new TerminalException("InvalidSpec", path + ": " + expected(e) + ", got " + got(tree, e));
                }
                tree = tree.deepCopy();
                tree.remove(top);
            } catch (JsonProcessingException e) {
                throw new MalformedRequestException("/" + field, "/" + field + ": " + e.getOriginalMessage());
            }
        }
    }

    /** The stored status does not fit: terminal, and logged, unless the controller reads it raw. */
    private static TerminalException unreadableStatus(JsonNode parent, Class<?> type, JsonMappingException e, boolean leaveOut) {
        String pointer = pointer(e);
        String what = pointer + ": " + expected(e) + ", got " + got(parent, e);
        String namespace = parent.path("metadata").path("namespace").asText("");
        String who = parent.path("kind").asText() + " " + (namespace.isEmpty() ? "" : namespace + "/")
                + parent.path("metadata").path("name").asText();
        if (leaveOut) {
            LOG.debug("{}: the status does not fit {} ({}); left out of the typed parent", who, type.getSimpleName(), what);
            return null;
        }
        LOG.warn("{}: the stored status does not fit {}: {}; stalled, every child kept", who, type.getSimpleName(), what);
        return new TerminalException("InvalidStatus", what + " (the stored status does not fit " + type.getSimpleName()
                + "; correct or remove the field)");
    }

    private static <T> T convert(JsonNode tree, Class<T> type) throws JsonProcessingException {
        Object converted = Json.convert(tree, type);
        if (!type.isInstance(converted)) {
            throw new IllegalStateException(type.getName() + " is read as " + converted.getClass().getSimpleName()
                    + "; annotate it with @JsonDeserialize(using = JsonDeserializer.None.class), as CustomResource is");
        }
        return type.cast(converted);
    }

    /** Where the mismatch is, as a JSON pointer into the parent ({@code /status/conditions/0/status}). */
    private static String pointer(JsonMappingException e) {
        StringBuilder pointer = new StringBuilder();
        for (JsonMappingException.Reference ref : e.getPath()) {
            pointer.append('/').append(ref.getFieldName() != null
                    ? ref.getFieldName().replace("~", "~0").replace("/", "~1") : Integer.toString(ref.getIndex()));
        }
        return pointer.toString();
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
