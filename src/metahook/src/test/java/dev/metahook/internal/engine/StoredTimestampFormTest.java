package dev.metahook.internal.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.internal.wire.Json;
import java.util.Optional;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** An embedded item's zero creationTimestamp is answered in the form the observed child stores, and nothing else moves. */
class StoredTimestampFormTest {
    private static final String WITHOUT = """
            {"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"name":"db"},"spec":{"replicas":1,
             "volumeClaimTemplates":[{"metadata":{"name":"data"},"spec":{"accessModes":["ReadWriteOnce"]}},
                                     {"metadata":{"name":"logs"},"spec":{"accessModes":["ReadWriteOnce"]}}]}}""";
    private static final String WITH = WITHOUT.replace("{\"name\":\"data\"}", "{\"creationTimestamp\":null,\"name\":\"data\"}")
            .replace("{\"name\":\"logs\"}", "{\"creationTimestamp\":null,\"name\":\"logs\"}");

    private static ObjectNode tree(String json) {
        return (ObjectNode) Json.parse(json.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    private static Supplier<Optional<? extends JsonNode>> observed(String json) {
        return () -> Optional.of(tree(json));
    }

    @Test
    void aServerThatStoresTheNullGetsTheNull() {
        assertEquals(tree(WITH), StoredTimestampForm.mirror(tree(WITHOUT), observed(WITH)));
    }

    @Test
    void aServerThatLeavesItOutGetsItLeftOut() {
        assertEquals(tree(WITHOUT), StoredTimestampForm.mirror(tree(WITH), observed(WITHOUT)));
    }

    @Test
    void itemsAreMatchedByNameAndANewOneKeepsTheControllersForm() {
        String reordered = WITH.replace("\"data\"", "\"tmp\"").replace("\"logs\"", "\"data\"").replace("\"tmp\"", "\"logs\"");
        String desired = WITHOUT.replace("\"logs\"", "\"cache\"");
        ObjectNode expected = tree(desired);
        ((ObjectNode) expected.at("/spec/volumeClaimTemplates/0/metadata")).putNull("creationTimestamp");
        assertEquals(expected, StoredTimestampForm.mirror(tree(desired), observed(reordered)));
    }

    @Test
    void withNothingObservedTheControllersFormStands() {
        assertEquals(tree(WITHOUT), StoredTimestampForm.mirror(tree(WITHOUT), Optional::empty));
        assertEquals(tree(WITH), StoredTimestampForm.mirror(tree(WITH), Optional::empty));
    }

    @Test
    void aRealChangeOfTheItemIsTheControllersWithTheStoredForm() {
        String grown = WITHOUT.replace("\"replicas\":1", "\"replicas\":0");
        assertEquals(tree(WITH.replace("\"replicas\":1", "\"replicas\":0")), StoredTimestampForm.mirror(tree(grown), observed(WITH)));
    }
}
