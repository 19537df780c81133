package dev.metahook.internal.server;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.emptyString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.api.Controllers;
import dev.metahook.api.Result;
import dev.metahook.internal.sim.Checker;
import dev.metahook.testing.Requests;
import dev.metahook.testing.TestServer;
import dev.metahook.testing.Widget;
import dev.metahook.testing.WidgetController;
import dev.metahook.internal.wire.Json;
import io.fabric8.kubernetes.api.model.ConfigMap;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** What Metacontroller relies on: stable bytes, ETag/304, terminal errors that keep children, both key versions. */
class ContractTest {
    @RegisterExtension
    static final TestServer server = TestServer.of(() -> Controllers.builder()
                .composite("widget", Widget.class, new WidgetController())
                .composite("reader", Widget.class, (widget, context) -> Result.keepingObserved().withStatus(Map.of(
                        "inParentNamespace", context.children().get(ConfigMap.class, "hello").map(c -> c.getData().get("message")).orElse("none"),
                        "inShop", context.children().get(ConfigMap.class, "shop", "hello").map(c -> c.getData().get("message")).orElse("none"),
                        "ratio", 6.0 / 2)))
                .build());

    private static ObjectNode observedSync() {
        return Requests.sync(Requests.widget("hello", 3, "hi"),
                List.of(Requests.observedConfigMap("hello", 3, "hi"), Requests.observedConfigMap("extra", 1, "x")), false);
    }

    @Test
    void shuffledKeysGiveIdenticalBytes() throws Exception {
        ObjectNode request = observedSync();
        byte[] expected = server.post("/widget/sync", Requests.bytes(request)).statusCode(200).extract().asByteArray();
        Random random = new Random(42);
        for (int i = 0; i < 5; i++) {
            byte[] shuffled = Json.mapper().writeValueAsBytes(Checker.shuffle(request, random));
            assertArrayEquals(expected, server.post("/widget/sync", shuffled).statusCode(200).extract().asByteArray());
        }
    }

    @Test
    void answers304WhenIfNoneMatchIsTheETagOfTheAnswer() {
        byte[] request = Requests.bytes(observedSync());
        String etag = server.post("/widget/sync", request).statusCode(200).extract().header("ETag");
        given().port(server.port()).contentType("application/json").header("If-None-Match", etag).body(request)
                .post("/widget/sync").then().statusCode(304).header("ETag", etag).body(emptyString());
        given().port(server.port()).contentType("application/json").header("If-None-Match", "\"stale\"").body(request)
                .post("/widget/sync").then().statusCode(200).header("ETag", etag);
    }

    @Test
    void theETagChangesWithTheAnswer() {
        String first = server.post("/widget/sync", Requests.bytes(Requests.sync(Requests.widget("hello", 3, "hi"), List.of(), false)))
                .extract().header("ETag");
        String second = server.post("/widget/sync", Requests.bytes(Requests.sync(Requests.widget("hello", 4, "hi"), List.of(), false)))
                .extract().header("ETag");
        assertEquals(false, first.equals(second));
    }

    @Test
    void wholeNumbersAreWrittenAsIntegers() {
        String body = server.post("/reader/sync", Requests.bytes(observedSync())).statusCode(200).extract().asString();
        assertEquals(true, body.contains("\"ratio\":3}"), body);
    }

    @Test
    void invalidSpecStallsAndKeepsEveryChildAsLastApplied() {
        ObjectNode parent = Requests.widget("hello", -1, "hi");
        ObjectNode leftover = Requests.observedConfigMap("extra", 1, "x");
        leftover.withObjectProperty("metadata").remove("annotations");
        JsonNode response = Json.parse(server.post("/widget/sync", Requests.bytes(Requests.sync(parent,
                List.of(Requests.observedConfigMap("hello", 3, "hi"), leftover), false))).statusCode(200).extract().asByteArray());

        JsonNode children = response.get("children");
        assertEquals(2, children.size());
        assertEquals(Json.parse(Requests.observedConfigMap("hello", 3, "hi").path("metadata").path("annotations")
                .path("metacontroller.k8s.io/last-applied-configuration").asText().getBytes()), children.get(1));
        ObjectNode expectedLeftover = leftover.deepCopy();
        List.of("uid", "resourceVersion", "creationTimestamp", "ownerReferences", "managedFields")
                .forEach(expectedLeftover.withObjectProperty("metadata")::remove);
        assertEquals(expectedLeftover, children.get(0));

        JsonNode stalled = response.at("/status/conditions/2");
        assertEquals("Stalled", stalled.get("type").asText());
        assertEquals("True", stalled.get("status").asText());
        assertEquals("InvalidSpec", stalled.get("reason").asText());
        assertEquals("spec.size: must be a whole number of at least 0", stalled.get("message").asText());
        assertEquals("False", response.at("/status/conditions/0/status").asText());
    }

    @Test
    void anAnnotationCopiedFromAnotherObjectIsNotItsLastAppliedForm() {
        ObjectNode copied = Requests.observedConfigMap("hello", 3, "hi");
        String otherAnnotation = Requests.observedConfigMap("other", 9, "not mine").path("metadata").path("annotations")
                .path("metacontroller.k8s.io/last-applied-configuration").asText();
        copied.withObjectProperty("metadata").withObjectProperty("annotations").put("metacontroller.k8s.io/last-applied-configuration", otherAnnotation);
        JsonNode response = Json.parse(server.post("/widget/sync", Requests.bytes(Requests.sync(Requests.widget("hello", -1, "hi"),
                List.of(copied), false))).statusCode(200).extract().asByteArray());
        JsonNode kept = response.at("/children/0");
        assertEquals("hello", kept.at("/metadata/name").asText());
        assertEquals("3", kept.at("/data/size").asText(), "the observed object, not the copied annotation");
        assertEquals(true, kept.at("/metadata/uid").isMissingNode(), "without what the server manages");
    }

    @Test
    void aFieldOfTheWrongTypeIsAnInvalidSpec() {
        ObjectNode parent = Requests.widget("hello", 3, "hi");
        parent.withObjectProperty("spec").put("size", "three");
        server.post("/widget/sync", Requests.bytes(Requests.sync(parent, List.of(Requests.observedConfigMap("hello", 3, "hi")), false)))
                .statusCode(200)
                .body("children", hasSize(1))
                .body("status.conditions[2].message", equalTo("spec.size: must be an integer, got \"three\""));
    }

    @Test
    void aDecimalWhereAnIntegerBelongsIsAnInvalidSpec() throws Exception {
        ObjectNode parent = Requests.widget("hello", 3, "hi");
        parent.withObjectProperty("spec").put("size", new BigDecimal("3.0"));
        byte[] asWritten = Json.mapper().writeValueAsBytes(Requests.sync(parent, List.of(), false));
        server.post("/widget/sync", asWritten)
                .statusCode(200)
                .body("children", hasSize(0))
                .body("status.conditions[2].message", equalTo("spec.size: must be an integer, got 3.0"));
    }

    @Test
    void stalledKeepsItsLastTransitionTimeWhileStillStalled() {
        ObjectNode parent = Requests.widget("hello", -1, "hi");
        ArrayNode previous = parent.putObject("status").putArray("conditions");
        previous.addObject().put("type", "Stalled").put("status", "True").put("lastTransitionTime", "2026-11-01T08:00:00Z");
        previous.addObject().put("type", "Ready").put("status", "True").put("lastTransitionTime", "2026-11-01T07:00:00Z");
        server.post("/widget/sync", Requests.bytes(Requests.sync(parent, List.of(), false)))
                .statusCode(200)
                .body("status.conditions[2].lastTransitionTime", equalTo("2026-11-01T08:00:00Z"))
                .body("status.conditions[0].lastTransitionTime", equalTo("2026-11-29T16:04:05Z"));
    }

    @Test
    void findsChildrenByNameWithV2Keys() {
        ObjectNode request = Requests.sync(Requests.widget("hello", 3, "hi"), List.of(), false);
        request.withObjectProperty("controller").withObjectProperty("spec").withObjectProperty("hooks").withObjectProperty("sync").put("version", "v2");
        request.withObjectProperty("children").withObjectProperty("ConfigMap.v1").set("default/hello", Requests.observedConfigMap("hello", 3, "v2 key"));
        server.post("/reader/sync", Requests.bytes(request)).statusCode(200)
                .body("status.inParentNamespace", equalTo("v2 key"))
                .body("children", hasSize(1));
    }

    @Test
    void findsChildrenOfAClusterScopedParentByNamespaceAndName() {
        ObjectNode parent = Requests.widget("hello", 3, "hi");
        parent.withObjectProperty("metadata").remove("namespace");
        ObjectNode child = Requests.observedConfigMap("hello", 3, "cluster parent");
        child.withObjectProperty("metadata").put("namespace", "shop");
        ObjectNode request = Requests.sync(parent, List.of(), false);
        request.withObjectProperty("children").withObjectProperty("ConfigMap.v1").set("shop/hello", child);
        server.post("/reader/sync", Requests.bytes(request)).log().ifValidationFails().statusCode(200)
                .body("status.inShop", equalTo("cluster parent"))
                .body("status.inParentNamespace", equalTo("none"))
                .body("children[0].metadata.namespace", equalTo("shop"));
    }
}
