package dev.metahook.internal.engine;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.zjsonpatch.DiffFlags;
import io.fabric8.zjsonpatch.JsonDiff;
import io.fabric8.zjsonpatch.JsonPatch;
import dev.metahook.internal.wire.GroupKey;
import dev.metahook.internal.wire.Json;
import dev.metahook.internal.wire.JsonCensus;
import dev.metahook.internal.wire.ObjectMap;
import dev.metahook.internal.wire.ObservedObject;
import java.util.EnumSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.function.Supplier;

/**
 * A desired child written over the JSON Metacontroller last applied for it. A typed model object
 * loses what its fields cannot hold: the {@code "creationTimestamp": null} of an embedded ObjectMeta,
 * a field it does not know, a number's written form. Written back as is, a child kept "as last
 * applied" would differ from the annotation there, and in a list without merge key (a StatefulSet's
 * {@code volumeClaimTemplates}) Metacontroller would then replace the list and send an update on
 * every call. So a child that has an observed counterpart with a fitting annotation is the
 * annotation's JSON with exactly the changes the controller made to its typed form: the difference
 * between the typed round trip of the annotation and the controller's object, applied to the
 * annotation. What the controller changes (a field, a list, a null its model can hold) gets through;
 * what its model could not see stays as it was, except a null the API server does not store either
 * (then the typed form wins: such a null only ever makes an update).
 */
final class LastAppliedBase {
    private static final EnumSet<DiffFlags> FLAGS = EnumSet.of(DiffFlags.OMIT_MOVE_OPERATION, DiffFlags.OMIT_COPY_OPERATION);
    private static final TypedForms TYPED = new TypedForms();
    private static final Fits FITS = new Fits();

    /** What a typed round trip depends on: the type, the annotation, and the namespaces that complete it. */
    record TypedKey(Class<?> type, String lastApplied, String namespace, String parentNamespace) {
    }

    /**
     * The typed round trip of each annotation, made once: the same children come with the same
     * annotation on every call, and converting it twice cost a tenth of a Database sync. The trees are
     * shared and only ever read. Bounded like the controller trees, by heap: at {@link #CAPACITY}
     * entries or {@link #CAPACITY_BYTES} of estimated heap (the annotation kept in the key and the typed
     * tree, {@link JsonCensus}) it starts over; an entry heavier than an eighth of that is never kept.
     */
    static final class TypedForms {
        static final int CAPACITY = 256;
        static final long CAPACITY_BYTES = 4L * 1024 * 1024;
        private static final ObjectNode UNREADABLE = Json.object();

        private final BoundedCache<TypedKey, ObjectNode> forms = new BoundedCache<>(CAPACITY, CAPACITY_BYTES);

        /** The typed round trip of {@code base}, the tree {@code key} describes; null when it cannot be read as its type. */
        ObjectNode of(TypedKey key, ObjectNode base) {
            ObjectNode known = forms.get(key);
            if (known == null) {
                ObjectNode typed = roundTrip(base, key.type());
                known = typed == null ? UNREADABLE : typed;
                forms.keep(key, known, keyWeight(key) + (typed == null ? 0 : JsonCensus.treeBytes(typed)));
            }
            return known == UNREADABLE ? null : known;
        }

        /** How many round trips are kept. */
        int size() {
            return forms.size();
        }

        /** The estimated heap of the round trips kept. */
        long weight() {
            return forms.weight();
        }
    }

    /**
     * The answers fitted so far, by what decides them: the controller's child, the typed round trip's
     * key and the observed object's bytes. On a resync the same controller builds the same children
     * from the same observed objects, and fitting them again (parsing the annotation and the observed
     * object, a diff and a patch) cost a quarter of a Database sync. Bounded as {@link TypedForms}, by
     * the estimated heap of the key (annotation, the controller's child, the observed bytes) and the answer.
     */
    static final class Fits {
        static final int CAPACITY = 256;
        static final long CAPACITY_BYTES = 8L * 1024 * 1024;
        private static final ObjectNode SAME = Json.object();

        private record Key(TypedKey typed, ObjectNode desired, ObservedObject.Bytes observed) {
        }

        private final BoundedCache<Key, ObjectNode> answers = new BoundedCache<>(CAPACITY, CAPACITY_BYTES);

        /** The answer for {@code desired}: kept from an earlier call with the same inputs, or fitted now. */
        ObjectNode of(TypedKey typed, ObjectNode desired, ObservedObject.Bytes observed, Supplier<ObjectNode> fitted) {
            ObjectNode known = answers.get(new Key(typed, desired, observed));
            if (known != null) {
                return known == SAME ? desired : known.deepCopy();
            }
            ObjectNode answer = fitted.get();
            long desiredBytes = JsonCensus.treeBytes(desired);
            long weight = keyWeight(typed) + desiredBytes + observed.length() + (answer == desired ? 0 : JsonCensus.treeBytes(answer));
            if (weight <= CAPACITY_BYTES / 8) {
                answers.keep(new Key(typed, desired.deepCopy(), observed.copy()), answer == desired ? SAME : answer.deepCopy(), weight);
            }
            return answer;
        }

        /** How many answers are kept. */
        int size() {
            return answers.size();
        }

        /** The estimated heap of the answers kept. */
        long weight() {
            return answers.weight();
        }
    }

    private LastAppliedBase() {
    }

    /** The heap a key keeps: its annotation, as a string of one byte a character (two when not Latin-1, the worst case assumed). */
    private static long keyWeight(TypedKey key) {
        return 2L * key.lastApplied().length() + 64;
    }

    /** The child to answer for {@code desired}, built by the controller as {@code type}. */
    static ObjectNode fit(ObjectNode desired, Class<?> type, ObjectMap observed, String parentNamespace) {
        Optional<ObservedObject> counterpart = counterpart(desired, observed, parentNamespace);
        if (counterpart.isEmpty()) {
            return desired;
        }
        ObservedObject object = counterpart.get();
        ObservedObject.Summary summary = object.summary();
        if (summary.lastApplied() == null || !summary.lastAppliedMayLose()) {
            return desired;
        }
        TypedKey typed = new TypedKey(type, summary.lastApplied(), summary.namespace(), parentNamespace);
        ObservedObject.Bytes bytes = object.bytes();
        if (bytes == null) {
            return fitted(desired, typed, object, summary);
        }
        return FITS.of(typed, desired, bytes, () -> fitted(desired, typed, object, summary));
    }

    private static ObjectNode fitted(ObjectNode desired, TypedKey key, ObservedObject observed, ObservedObject.Summary summary) {
        Optional<ObjectNode> annotated = LastApplied.annotated(observed, summary, key.parentNamespace());
        if (annotated.isEmpty() || annotated.get().equals(desired)) {
            return desired;
        }
        ObjectNode base = annotated.get();
        ObjectNode typed = TYPED.of(key, base);
        if (typed == null || typed.equals(base)) {
            return desired;
        }
        ObjectNode answer = typed.equals(desired) ? base : patched(base, typed, desired);
        if (answer == null) {
            return desired;
        }
        dropNullsTheServerLacks(answer, typed, observed);
        return answer;
    }

    /** The controller's changes to the typed form, applied to the annotation; null when they do not fit its shape. */
    private static ObjectNode patched(ObjectNode base, ObjectNode typed, ObjectNode desired) {
        try {
            return JsonPatch.apply(JsonDiff.asJson(typed, desired, FLAGS), base) instanceof ObjectNode child ? child : null;
        } catch (RuntimeException unappliable) {
            return null;
        }
    }

    /** The observed child of the same apiVersion, kind, namespace and name, by its key ({@code name} or {@code namespace/name}). */
    static Optional<ObservedObject> counterpart(ObjectNode desired, ObjectMap observed, String parentNamespace) {
        String kind = desired.path("kind").asText("");
        String apiVersion = desired.path("apiVersion").asText("");
        if (observed.isEmpty() || kind.isEmpty() || kind.indexOf('.') >= 0 || apiVersion.isEmpty()) {
            return Optional.empty();
        }
        SortedMap<String, ObservedObject> group = observed.entries(new GroupKey(kind, apiVersion));
        if (group.isEmpty()) {
            return Optional.empty();
        }
        String name = desired.path("metadata").path("name").asText();
        String namespace = desired.path("metadata").path("namespace").asText("");
        for (String key : new String[] {name, namespace + "/" + name}) {
            ObservedObject object = group.get(key);
            if (object != null && name.equals(object.name()) && namespace.equals(object.namespaceOr(parentNamespace))) {
                return Optional.of(object);
            }
        }
        return Optional.empty();
    }

    private static ObjectNode roundTrip(ObjectNode base, Class<?> type) {
        try {
            return Json.tree(Json.convert(base, type)) instanceof ObjectNode typed ? typed : null;
        } catch (JsonProcessingException | RuntimeException unreadable) {
            return null;
        }
    }

    /**
     * A null the typed form could not hold is kept where the API server stores that null too (the
     * zero time of an embedded ObjectMeta); anywhere else it is removed: the server would store
     * something else, and Metacontroller would send the null again on every call. Items of a list
     * whose length changed cannot be matched by position, so their nulls stay.
     */
    private static void dropNullsTheServerLacks(ObjectNode child, ObjectNode typed, ObservedObject observed) {
        if (hasLostNull(child, typed)) {
            dropLostNulls(child, typed, observed.tree());
        }
    }

    private static boolean hasLostNull(JsonNode node, JsonNode typed) {
        if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = node.properties().iterator(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> field = it.next();
                JsonNode value = field.getValue();
                if (value.isNull() ? !typed.has(field.getKey()) : hasLostNull(value, typed.path(field.getKey()))) {
                    return true;
                }
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                if (hasLostNull(node.get(i), typed.path(i))) {
                    return true;
                }
            }
        }
        return false;
    }

    private static void dropLostNulls(JsonNode node, JsonNode typed, JsonNode observed) {
        if (node instanceof ObjectNode object) {
            for (Iterator<Map.Entry<String, JsonNode>> it = object.properties().iterator(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> field = it.next();
                String name = field.getKey();
                JsonNode value = field.getValue();
                if (value.isNull() && !typed.has(name) && !observed.path(name).isNull()) {
                    it.remove();
                } else if (!value.isNull()) {
                    dropLostNulls(value, typed.path(name), observed.path(name));
                }
            }
        } else if (node instanceof ArrayNode array && array.size() == typed.size() && array.size() == observed.size()) {
            for (int i = 0; i < array.size(); i++) {
                dropLostNulls(array.get(i), typed.path(i), observed.path(i));
            }
        }
    }
}
