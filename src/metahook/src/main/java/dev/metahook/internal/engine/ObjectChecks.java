package dev.metahook.internal.engine;

import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.metahook.internal.wire.MalformedRequestException;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.List;

/**
 * What the engine checks of a parent or child before a controller reads it, so that a field the API
 * server would never send is a bad request naming that field instead of the controller's failure:
 * the creation and deletion times must be RFC 3339 as Kubernetes writes them (a controller reads
 * them: a teardown deadline from the deletionTimestamp).
 */
final class ObjectChecks {
    private ObjectChecks() {
    }

    /** The times in the object's metadata; {@code pointer} is where the object is in the request. */
    static void timestamps(JsonNode object, String pointer) {
        JsonNode metadata = object.path("metadata");
        for (String field : List.of("creationTimestamp", "deletionTimestamp")) {
            JsonNode value = metadata.path(field);
            if (value.isTextual()) {
                timestamp(value.textValue(), pointer + "/metadata/" + field);
            }
        }
    }

    static void timestamps(ObjectMeta metadata, String pointer) {
        timestamp(metadata.getCreationTimestamp(), pointer + "/metadata/creationTimestamp");
        timestamp(metadata.getDeletionTimestamp(), pointer + "/metadata/deletionTimestamp");
    }

    private static void timestamp(String value, String pointer) {
        if (value == null) {
            return;
        }
        try {
            OffsetDateTime.parse(value);
        } catch (DateTimeParseException e) {
            throw new MalformedRequestException(pointer, pointer + ": '" + value
                    + "' is not a time as Kubernetes writes one (RFC 3339, such as 2026-11-29T16:04:05Z)");
        }
    }

    /** The JSON pointer, below the object read, of the field a mapping failure names. */
    static String below(JsonMappingException e) {
        StringBuilder pointer = new StringBuilder();
        for (JsonMappingException.Reference ref : e.getPath()) {
            pointer.append('/').append(ref.getFieldName() != null
                    ? ref.getFieldName().replace("~", "~0").replace("/", "~1") : Integer.toString(ref.getIndex()));
        }
        return pointer.toString();
    }
}
