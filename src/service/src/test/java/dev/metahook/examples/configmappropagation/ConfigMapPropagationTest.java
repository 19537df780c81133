package dev.metahook.examples.configmappropagation;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.api.Controllers;
import dev.metahook.testing.StoredObjects;
import dev.metahook.testing.TestServer;
import dev.metahook.internal.wire.CanonicalJson;
import dev.metahook.internal.wire.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The configmappropagation example through the stock server, customize included: requests as a
 * v1 Metacontroller sends them for a cluster-scoped parent (children keyed {@code namespace/name},
 * the source ConfigMap and the selected Namespaces as related objects, with full metadata).
 */
class ConfigMapPropagationTest {
    private static final String UID = "0c4d6e2a-5b1f-4e8a-9d3c-7f2b1a0e9d88";
    @RegisterExtension
    static final TestServer server = TestServer.of(() -> Controllers.builder()
                .composite("configmappropagation", ConfigMapPropagation.class, new ConfigMapPropagationController())
                .build());

    @Test
    void customizeAsksForTheSourceAndTheSelectedNamespaces() {
        ObjectNode request = Json.object();
        request.set("controller", controller());
        request.set("parent", parent());
        JsonNode rules = post("/configmappropagation/customize", request).get("relatedResources");
        assertEquals(Json.parse(("[{'apiVersion':'v1','names':['settings'],'namespace':'original','resource':'configmaps'},"
                + "{'apiVersion':'v1','labelSelector':{'matchLabels':{'settings':'wanted'}},'resource':'namespaces'}]")
                .replace('\'', '"').getBytes()), rules);
    }

    @Test
    void copiesTheSourceIntoEverySelectedNamespace() {
        JsonNode answer = post("/configmappropagation/sync", sync(List.of(), source(), namespace("one"), namespace("two")));
        assertEquals(List.of("one/settings", "two/settings"), names(answer));
        for (JsonNode copy : answer.get("children")) {
            assertEquals(Json.parse("{\"other\":\"value\",\"some\":\"value\"}".getBytes()), copy.get("data"));
        }
        assertEquals(2, answer.at("/status/expected_copies").intValue());
        assertEquals(0, answer.at("/status/actual_copies").intValue());
        assertEquals("Propagated", answer.at("/status/conditions/0/reason").textValue());
    }

    /** The original's spec lists the namespaces; its sync answers a copy of the source's data in each, and counts. */
    @Test
    void answersTheOriginalsSpecAsTheOriginalDoes() {
        ObjectNode customize = Json.object();
        customize.set("controller", controller());
        customize.set("parent", listing("one", "two", "three"));
        assertEquals(1, post("/configmappropagation/customize", customize).get("relatedResources").size(),
                "only the source ConfigMap, as the original asks");
        ObjectNode request = sync(List.of(), source());
        request.set("parent", listing("one", "two", "three"));
        request.withObjectProperty("related").remove("Namespace.v1");
        JsonNode answer = post("/configmappropagation/sync", request);
        assertEquals(List.of("one/settings", "three/settings", "two/settings"), names(answer));
        for (JsonNode copy : answer.get("children")) {
            assertEquals(List.of("apiVersion", "data", "kind", "metadata"), fieldNames(copy));
            assertEquals(List.of("name", "namespace"), fieldNames(copy.get("metadata")));
        }
        assertEquals(3, answer.at("/status/expected_copies").intValue());
        assertEquals(0, answer.at("/status/actual_copies").intValue());
    }

    private static ObjectNode listing(String... namespaces) {
        ObjectNode parent = parent();
        ObjectNode spec = parent.withObjectProperty("spec");
        spec.remove("targetNamespaceSelector");
        for (String namespace : namespaces) {
            spec.withArray("targetNamespaces").add(namespace);
        }
        return parent;
    }

    private static List<String> fieldNames(JsonNode object) {
        List<String> names = new ArrayList<>();
        object.fieldNames().forEachRemaining(names::add);
        return names;
    }

    @Test
    void dropsTheCopyOfANamespaceThatStoppedMatching() {
        List<ObjectNode> copies = List.of(observedCopy("one"), observedCopy("two"), observedCopy("three"));
        JsonNode answer = post("/configmappropagation/sync", sync(copies, source(), namespace("one"), namespace("two")));
        assertEquals(List.of("one/settings", "two/settings"), names(answer));
        assertEquals(3, answer.at("/status/actual_copies").intValue());
    }

    @Test
    void aSourceThatIsGoneTakesItsCopiesWithIt() {
        JsonNode answer = post("/configmappropagation/sync", sync(List.of(observedCopy("one")), null, namespace("one")));
        assertEquals(List.of(), names(answer));
        assertEquals("SourceNotFound", answer.at("/status/conditions/2/reason").textValue());
        assertEquals("True", answer.at("/status/conditions/2/status").textValue());
    }

    @Test
    void theSourceItselfIsNeverWrittenEvenWhenItsNamespaceMatches() {
        JsonNode answer = post("/configmappropagation/sync", sync(List.of(), source(), namespace("original"), namespace("one")));
        assertEquals(List.of("one/settings"), names(answer));
    }

    @Test
    void relatedGroupsTheControllerDoesNotReadAreIgnored() {
        ObjectNode request = sync(List.of(), source(), namespace("one"));
        request.withObjectProperty("related").putObject("Secret.v1").putObject("original/token").put("apiVersion", "v1").put("kind", "Secret")
                .putObject("metadata").put("name", "token").put("namespace", "original");
        assertEquals(List.of("one/settings"), names(post("/configmappropagation/sync", request)));
    }

    @Test
    void theSameRequestGivesTheSameBytes() {
        ObjectNode request = sync(List.of(observedCopy("two")), source(), namespace("two"), namespace("one"));
        byte[] first = bytes("/configmappropagation/sync", CanonicalJson.bytes(request));
        byte[] again = bytes("/configmappropagation/sync", request.toString().getBytes());
        assertArrayEquals(first, again);
    }

    @Test
    void aRelatedObjectThatIsNotAnObjectIsABadRequestThatChangesNothing() {
        ObjectNode request = sync(List.of(observedCopy("one")), source(), namespace("one"));
        request.withObjectProperty("related").withObjectProperty("ConfigMap.v1").put("original/settings", "not an object");
        server.post("/configmappropagation/sync", CanonicalJson.bytes(request))
                .statusCode(400).contentType("application/problem+json")
                .body("pointer", equalTo("/related/ConfigMap.v1/original~1settings"));
    }

    @Test
    void aRelatedObjectUnderAnotherNameIsABadRequest() {
        ObjectNode request = sync(List.of(observedCopy("one")), null, namespace("one"));
        ObjectNode impostor = source();
        impostor.withObjectProperty("metadata").put("name", "other");
        request.withObjectProperty("related").withObjectProperty("ConfigMap.v1").set("original/settings", impostor);
        server.post("/configmappropagation/sync", CanonicalJson.bytes(request))
                .statusCode(400).contentType("application/problem+json")
                .body("detail", containsString("original/settings"));
    }

    @Test
    void aRelatedMapKeyedUnlikeChildrenIsABadRequest() {
        ObjectNode request = sync(List.of(), source(), namespace("one"));
        request.withObjectProperty("related").putObject("Namespaces").putObject("one");
        server.post("/configmappropagation/sync", CanonicalJson.bytes(request))
                .statusCode(400).contentType("application/problem+json")
                .body("pointer", equalTo("/related/Namespaces"));
    }

    private static JsonNode post(String path, ObjectNode request) {
        return Json.parse(bytes(path, CanonicalJson.bytes(request)));
    }

    private static byte[] bytes(String path, byte[] body) {
        return server.post(path, body).statusCode(200).extract().asByteArray();
    }

    /** The children's names, sorted: the order they are answered in is asserted by ConfigMapPropagationOriginalTest. */
    private static List<String> names(JsonNode answer) {
        List<String> names = new ArrayList<>();
        answer.get("children").forEach(child -> names.add(child.at("/metadata/namespace").textValue() + "/"
                + child.at("/metadata/name").textValue()));
        names.sort(null);
        return names;
    }

    private static ObjectNode controller() {
        return StoredObjects.manifest("examples/configmappropagation/controller.yaml");
    }

    private static ObjectNode parent() {
        ObjectNode parent = StoredObjects.manifest("examples/configmappropagation/configmappropagation.yaml");
        parent.withObjectProperty("metadata").put("uid", UID).put("generation", 1).put("resourceVersion", "1000")
                .put("creationTimestamp", "2026-11-29T10:00:00Z");
        return parent;
    }

    /** A sync request as v1 keys it for a cluster-scoped parent. */
    private static ObjectNode sync(List<ObjectNode> copies, ObjectNode source, ObjectNode... namespaces) {
        ObjectNode request = Json.object();
        request.set("controller", controller());
        request.set("parent", parent());
        ObjectNode children = request.putObject("children").putObject("ConfigMap.v1");
        copies.forEach(copy -> children.set(copy.at("/metadata/namespace").textValue() + "/settings", copy));
        ObjectNode related = request.putObject("related");
        ObjectNode configMaps = related.putObject("ConfigMap.v1");
        if (source != null) {
            configMaps.set("original/settings", source);
        }
        ObjectNode namespaceGroup = related.putObject("Namespace.v1");
        for (ObjectNode namespace : namespaces) {
            namespaceGroup.set(namespace.at("/metadata/name").textValue(), namespace);
        }
        request.put("finalizing", false);
        return request;
    }

    private static ObjectNode source() {
        ObjectNode source = Json.object().put("apiVersion", "v1").put("kind", "ConfigMap");
        source.putObject("metadata").put("name", "settings").put("namespace", "original").put("uid", "5e0f9a1b-0000-4000-8000-000000000001")
                .put("resourceVersion", "812").put("creationTimestamp", "2026-11-29T09:00:00Z")
                .putArray("managedFields").addObject().put("manager", "kubectl-client-side-apply").put("operation", "Update");
        source.putObject("data").put("some", "value").put("other", "value");
        return source;
    }

    private static ObjectNode namespace(String name) {
        ObjectNode namespace = Json.object().put("apiVersion", "v1").put("kind", "Namespace");
        ObjectNode metadata = namespace.putObject("metadata").put("name", name).put("uid", "ns-" + name).put("resourceVersion", "90");
        metadata.putObject("labels").put("kubernetes.io/metadata.name", name).put("settings", "wanted");
        namespace.putObject("spec").putArray("finalizers").add("kubernetes");
        namespace.putObject("status").put("phase", "Active");
        return namespace;
    }

    private static ObjectNode observedCopy(String namespace) {
        ObjectNode desired = Json.object().put("apiVersion", "v1").put("kind", "ConfigMap");
        desired.putObject("metadata").put("name", "settings").put("namespace", namespace);
        desired.set("data", Json.tree(Map.of("some", "value", "other", "value")));
        return StoredObjects.observe(desired, parent(), null);
    }
}
