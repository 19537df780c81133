package dev.metahook.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** An observed object's bytes as a value: the key under which work done for an object is kept. */
class ObservedBytesTest {
    private static List<ObservedObject> children(String json) {
        return CompositeRequest.read(json.getBytes(StandardCharsets.UTF_8)).children().entries();
    }

    private static String request(String padding, String replicas) {
        return "{\"controller\":{\"apiVersion\":\"metacontroller.k8s.io/v1alpha1\",\"kind\":\"CompositeController\",\"metadata\":{\"name\":\"c\"}},"
                + "\"parent\":{\"apiVersion\":\"example.com/v1\",\"kind\":\"App\",\"metadata\":{\"name\":\"p\",\"namespace\":\"ns\"" + padding + "}},"
                + "\"children\":{\"ConfigMap.v1\":{\"ns/a\":{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\",\"namespace\":\"ns\"},"
                + "\"data\":{\"replicas\":\"" + replicas + "\"}}}},\"finalizing\":false}";
    }

    @Test
    void theSameObjectAtAnotherPlaceInAnotherBodyIsEqual() {
        ObservedObject.Bytes first = children(request("", "3")).get(0).bytes();
        ObservedObject.Bytes moved = children(request(",\"labels\":{\"x\":\"yyyyyyyyyyyy\"}", "3")).get(0).bytes();
        assertEquals(first, moved);
        assertEquals(first.hashCode(), moved.hashCode());
        assertEquals(first, moved.copy());
        assertEquals(first.hashCode(), moved.copy().hashCode());
    }

    @Test
    void oneByteOtherIsAnotherObject() {
        ObservedObject.Bytes three = children(request("", "3")).get(0).bytes();
        ObservedObject.Bytes four = children(request("", "4")).get(0).bytes();
        assertNotEquals(three, four);
        assertNotEquals(three, children(request("", "33")).get(0).bytes());
    }

    @Test
    void anObjectMadeFromATreeHasNoBytes() {
        assertNull(ObservedObject.of(new GroupKey("ConfigMap", "v1"), "a", Json.object()).bytes());
    }
}
