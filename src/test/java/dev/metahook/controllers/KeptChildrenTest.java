package dev.metahook.controllers;

import static dev.metahook.controllers.ReferenceServer.child;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.testing.Fixtures;
import dev.metahook.testing.TestServer;
import dev.metahook.wire.CanonicalJson;
import dev.metahook.wire.LastAppliedConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The Database's teardown keeps its children as last applied: on requests a real Metacontroller
 * sent, every kept child is its last-applied annotation byte for byte, the StatefulSet with only
 * {@code replicas} changed (issue 14: a typed round trip dropped the claim template's
 * {@code "creationTimestamp": null}, and Metacontroller replaced the list on every call).
 */
class KeptChildrenTest {
    private static final String DRAIN = "captured/v1.5.14-database-finalize-drain.request.json";
    private static final String BACKING_UP = "captured/v1.5.14-metahook-database-finalize-backingup.request.json";
    private static final String NULL_CLAIM_METADATA = "\"metadata\":{\"creationTimestamp\":null,\"name\":\"data\"}";
    @RegisterExtension
    static final TestServer server = TestServer.of(ReferenceServer::controllers);

    private static JsonNode finalize(ObjectNode request) {
        return ReferenceServer.call(server, "/database/finalize", request);
    }

    private static String annotation(JsonNode request, String group, String name) {
        return request.path("children").path(group).path(name).path("metadata").path("annotations")
                .path(LastAppliedConfiguration.ANNOTATION).asText();
    }

    @Test
    void theFirstFinalizeCallScalesTheStatefulSetToZeroAndChangesNothingElse() {
        ObjectNode request = (ObjectNode) Fixtures.json(DRAIN);
        JsonNode answer = finalize(request);

        String statefulSet = annotation(request, "StatefulSet.apps/v1", "inventory");
        assertTrue(statefulSet.contains(NULL_CLAIM_METADATA) && statefulSet.contains("\"replicas\":1,"), statefulSet);
        assertEquals(statefulSet.replace("\"replicas\":1,", "\"replicas\":0,"),
                CanonicalJson.string(child(answer, "StatefulSet", "inventory")));
        assertEquals(annotation(request, "Secret.v1", "inventory-credentials"),
                CanonicalJson.string(child(answer, "Secret", "inventory-credentials")));
        assertEquals(annotation(request, "Service.v1", "inventory-headless"),
                CanonicalJson.string(child(answer, "Service", "inventory-headless")));
        assertEquals(3, answer.path("children").size(), "the client Service goes: " + answer.path("children"));
    }

    @Test
    void aFinalizeCallWhileTheBackupRunsAnswersEveryChildAsItsAnnotation() {
        ObjectNode request = (ObjectNode) Fixtures.json(BACKING_UP);
        JsonNode answer = finalize(request);

        assertEquals(4, answer.path("children").size());
        for (JsonNode child : answer.path("children")) {
            String group = child.path("kind").asText() + "." + child.path("apiVersion").asText();
            assertEquals(annotation(request, group, child.path("metadata").path("name").asText()), CanonicalJson.string(child));
        }
    }

    @Test
    void theNullTheSyncWroteIsKeptThroughTheWholeTeardown() {
        ObjectNode request = (ObjectNode) Fixtures.json(BACKING_UP);
        ObjectNode annotations = (ObjectNode) request.at("/children/StatefulSet.apps~1v1/orders/metadata/annotations");
        String asTheDrainStepLeftIt = annotations.path(LastAppliedConfiguration.ANNOTATION).asText()
                .replace("\"metadata\":{\"name\":\"data\"}", NULL_CLAIM_METADATA);
        annotations.put(LastAppliedConfiguration.ANNOTATION, asTheDrainStepLeftIt);

        JsonNode answer = finalize(request);

        assertEquals(asTheDrainStepLeftIt, CanonicalJson.string(child(answer, "StatefulSet", "orders")));
    }

    @Test
    void theAnswerMetahookGaveOnTheRealClusterIsWhatItStillGivesForThatRequest() {
        JsonNode answer = finalize((ObjectNode) Fixtures.json(BACKING_UP));
        JsonNode captured = Fixtures.json("captured/v1.5.14-metahook-database-finalize-backingup.response.json");
        assertEquals(captured.path("children"), answer.path("children"),
                "its annotation already lacks the null (written by 0.1.0's earlier finalize calls): answering it is all a hook can do");
    }
}
