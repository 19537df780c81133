package dev.metahook.internal.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.fabric8.kubernetes.api.model.ConfigMap;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
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

    private static final String MANAGED = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"managedFields\":[{\"manager\":\"kubectl\","
            + "\"fieldsV1\":{\"f:data\":{\"f:replicas\":{}}}}],\"name\":\"a\",\"namespace\":\"ns\"},\"data\":{\"replicas\":\"3\"}}";

    private static String typedBytes(ObservedObject child, int step) throws IOException {
        ByteArrayOutputStream read = new ByteArrayOutputStream();
        byte[] chunk = new byte[step];
        try (InputStream in = child.typedBytes()) {
            for (int count; (count = in.read(chunk, 0, step)) >= 0; ) {
                read.write(chunk, 0, count);
            }
        }
        return read.toString(StandardCharsets.UTF_8);
    }

    /** The typed read parses the child without its managedFields, whatever sizes the parser reads in. */
    @Test
    void theTypedReadSeesNullForManagedFields() throws IOException {
        String body = request("", "3").replaceFirst("\\{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\".*\\}\\}\\}\\}", MANAGED + "}}");
        ObservedObject child = children(body).get(0);
        String expected = MANAGED.replaceFirst("\\[.*\\]", "null");
        for (int step : new int[] {1, 3, 7, 64, 8192}) {
            assertEquals(expected, typedBytes(child, step), "reading " + step + " bytes at a time");
        }
        ConfigMap typed = child.read(ConfigMap.class);
        assertEquals("3", typed.getData().get("replicas"));
        assertEquals("a", typed.getMetadata().getName());
        assertEquals(List.of(), typed.getMetadata().getManagedFields());
    }
}
