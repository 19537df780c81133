package dev.metahook.internal.server;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.internal.engine.HookEngine;
import dev.metahook.testing.Requests;
import dev.metahook.testing.TestServer;
import io.restassured.specification.RequestSpecification;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A Widget through the real server: what Metacontroller sends in, what it gets back. */
class HookServerTest {
    @RegisterExtension
    static final TestServer server = TestServer.of(() -> TestServer.widgets());

    private static RequestSpecification hook() {
        return given().port(server.port()).contentType("application/json");
    }

    @Test
    void createsTheConfigMapOnFirstSync() {
        byte[] request = Requests.bytes(Requests.sync(Requests.widget("hello", 3, "hi"), List.of(), false));
        hook().body(request).post("/widget/sync").then()
                .statusCode(200)
                .contentType("application/json")
                .header("ETag", not(nullValue()))
                .body("children", hasSize(1))
                .body("children[0].apiVersion", equalTo("v1"))
                .body("children[0].kind", equalTo("ConfigMap"))
                .body("children[0].metadata.name", equalTo("hello"))
                .body("children[0].metadata.namespace", equalTo("default"))
                .body("children[0].data.size", equalTo("3"))
                .body("status.size", equalTo(3))
                .body("status.observedConfigMaps", equalTo(0))
                .body("status.conditions[0].type", equalTo("Ready"))
                .body("status.conditions[0].lastTransitionTime", equalTo("2026-11-29T16:04:05Z"))
                .body("status.conditions[0].observedGeneration", equalTo(2))
                .body("$", not(hasKey("finalized")))
                .body("$", not(hasKey("resyncAfterSeconds")));
    }

    @Test
    void answersWithCompactJsonWithSortedKeys() {
        byte[] request = Requests.bytes(Requests.sync(Requests.widget("hello", 3, "hi"), List.of(), false));
        String body = hook().body(request).post("/widget/sync").asString();
        assertEquals("{\"children\":[{\"apiVersion\":\"v1\",\"data\":{\"message\":\"hi\",\"size\":\"3\"},\"kind\":\"ConfigMap\","
                + "\"metadata\":{\"labels\":{\"app.kubernetes.io/instance\":\"hello\",\"app.kubernetes.io/name\":\"widget\"},"
                + "\"name\":\"hello\",\"namespace\":\"default\"}}],\"status\":{\"conditions\":[{\"lastTransitionTime\":"
                + "\"2026-11-29T16:04:05Z\",\"message\":\"the ConfigMap is written\",\"observedGeneration\":2,\"reason\":\"Available\","
                + "\"status\":\"True\",\"type\":\"Ready\"}],\"observedConfigMaps\":0,\"size\":3}}", body);
    }

    @Test
    void readsObservedChildrenByType() {
        ObjectNode request = Requests.sync(Requests.widget("hello", 3, "hi"),
                List.of(Requests.observedConfigMap("hello", 3, "hi"), Requests.observedConfigMap("old", 1, "bye")), false);
        hook().body(Requests.bytes(request)).post("/widget/sync").then()
                .statusCode(200)
                .body("status.observedConfigMaps", equalTo(2))
                .body("children.metadata.name", equalTo(List.of("hello")));
    }

    @Test
    void finalizeWaitsUntilChildrenAreGoneThenSaysFinalized() {
        ObjectNode deleting = Requests.widget("hello", 3, "hi");
        deleting.withObjectProperty("metadata").put("deletionTimestamp", "2026-11-29T16:00:00Z");
        ObjectNode first = Requests.sync(deleting, List.of(Requests.observedConfigMap("hello", 3, "hi")), true);
        hook().body(Requests.bytes(first)).post("/widget/finalize").then()
                .statusCode(200)
                .body("finalized", equalTo(false))
                .body("children", hasSize(0))
                .body("resyncAfterSeconds", equalTo(5))
                .body("status.phase", equalTo("Deleting"));
        ObjectNode last = Requests.sync(deleting, List.of(), true);
        hook().body(Requests.bytes(last)).post("/widget/finalize").then()
                .statusCode(200)
                .body("finalized", equalTo(true))
                .body("status.phase", equalTo("Deleted"));
    }

    @Test
    void customizeAnswersTheControllersRules() {
        ObjectNode request = Requests.customize(Requests.controller(true), Requests.widget("hello", 3, "hi"));
        hook().body(Requests.bytes(request)).post("/widget/customize").then()
                .statusCode(200)
                .body("relatedResources", hasSize(1))
                .body("relatedResources[0].apiVersion", equalTo("v1"))
                .body("relatedResources[0].resource", equalTo("secrets"))
                .body("relatedResources[0].namespace", equalTo("default"))
                .body("relatedResources[0].names", equalTo(List.of("widget-shared")));
    }

    @Test
    void keepsIdleConnectionsLongerThanMetacontrollersClient() {
        try (HookServer own = HookServer.start(new HookEngine(TestServer.widgets(), TestServer.CLOCK),
                HookServer.Options.of(ServerConfig.defaults().withHost("127.0.0.1").withPort(0)))) {
            assertTrue(own.idleTimeout().compareTo(Duration.ofSeconds(90)) > 0,
                    own.idleTimeout().toString());
        }
    }

    @Test
    void healthAndReadinessAnswer() {
        given().port(server.port()).get("/healthz").then().statusCode(200);
        given().port(server.port()).get("/readyz").then().statusCode(200).body(containsString("ready"));
    }

    @Test
    void sameRequestGivesSameBytes() {
        byte[] request = Requests.bytes(Requests.sync(Requests.widget("hello", 3, "hi"),
                List.of(Requests.observedConfigMap("hello", 3, "hi")), false));
        byte[] first = hook().body(request).post("/widget/sync").asByteArray();
        byte[] second = hook().body(request).post("/widget/sync").asByteArray();
        assertArrayEquals(first, second);
    }
}
