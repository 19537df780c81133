package dev.metahook.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Rendered manifests (kustomize's or helm's output) as objects keyed by {@code apiVersion kind namespace/name}, for
 * comparing two renderings object by object. The lists Kubernetes merges by a key (a container's {@code env} and
 * {@code volumeMounts}, a pod's {@code volumes}) are compared in the key's order: kustomize puts the items of a
 * component's patch first, a template where it writes them.
 */
public final class RenderedObjects {
    private static final YAMLMapper YAML = new YAMLMapper();
    private static final ObjectMapper SORTING = new ObjectMapper().enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);

    private RenderedObjects() {
    }

    /** The objects of multi-document YAML, each under its key; an empty document (a template rendering nothing) is skipped. */
    public static SortedMap<String, JsonNode> of(String yaml) {
        SortedMap<String, JsonNode> objects = new TreeMap<>();
        try {
            for (JsonNode object : YAML.readValues(new YAMLFactory().createParser(yaml), JsonNode.class).readAll()) {
                if (object == null || object.isNull() || object.isEmpty()) {
                    continue;
                }
                String key = object.path("apiVersion").asText() + " " + object.path("kind").asText() + " "
                        + object.at("/metadata/namespace").asText("") + "/" + object.at("/metadata/name").asText();
                if (objects.put(key, normalized(object.deepCopy())) != null) {
                    throw new AssertionError("two objects " + key + " in\n" + yaml);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("not YAML:\n" + yaml, e);
        }
        return objects;
    }

    /** The same objects, each equal, or a failure naming the first object that differs and both versions of it. */
    public static void assertSame(SortedMap<String, JsonNode> expected, SortedMap<String, JsonNode> actual, String what) {
        assertEquals(expected.keySet(), actual.keySet(), what + ": the objects");
        for (String key : expected.keySet()) {
            if (!expected.get(key).equals(actual.get(key))) {
                assertEquals(sorted(expected.get(key)), sorted(actual.get(key)), what + ": " + key);
            }
        }
    }

    /** The object as JSON with its keys sorted, so that two of them differ in what they hold, not in their order. */
    private static String sorted(JsonNode object) {
        try {
            Object plain = SORTING.treeToValue(object, Object.class);
            return SORTING.writerWithDefaultPrettyPrinter().writeValueAsString(plain);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static JsonNode normalized(JsonNode object) {
        JsonNode pod = object.at("/spec/template/spec");
        if (pod instanceof ObjectNode) {
            sort(pod.get("volumes"), "name");
            for (JsonNode container : pod.path("containers")) {
                sort(container.get("env"), "name");
                sort(container.get("volumeMounts"), "mountPath");
            }
        }
        return object;
    }

    private static void sort(JsonNode list, String key) {
        if (list instanceof ArrayNode array) {
            List<JsonNode> items = new ArrayList<>();
            array.forEach(items::add);
            items.sort(Comparator.comparing(item -> item.path(key).asText()));
            array.removeAll();
            array.addAll(items);
        }
    }
}
