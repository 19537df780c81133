package dev.metahook.controllers;

import static dev.metahook.controllers.ReferenceServer.child;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.internal.sim.ThreeWayMerge;
import dev.metahook.testing.Fixtures;
import dev.metahook.testing.TestServer;
import dev.metahook.internal.wire.CanonicalJson;
import dev.metahook.internal.wire.LastAppliedConfiguration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The Database's teardown keeps its children as last applied: on requests a real Metacontroller
 * sent, every kept child is its last-applied annotation byte for byte, the StatefulSet with only
 * {@code replicas} changed, and the claim template's zero {@code creationTimestamp} in the form the
 * observed StatefulSet stores. The requests were captured on v1.20, whose API server wrote
 * {@code "creationTimestamp": null} into the claim template, as every server up to 1.33 does; from 1.34
 * the server stores none, so the tests also take the null out of what v1.20 stored.
 */
class KeptChildrenTest {
    private static final String DRAIN = "captured/v1.5.14-database-finalize-drain.request.json";
    private static final String BACKING_UP = "captured/v1.5.14-metahook-database-finalize-backingup.request.json";
    private static final String NULL_CLAIM_METADATA = "\"metadata\":{\"creationTimestamp\":null,\"name\":\"data\"}";
    private static final String NAME_ONLY = "\"metadata\":{\"name\":\"data\"}";
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

    /** Every child is its annotation, the claim template's creationTimestamp in the form the observed StatefulSet stores. */
    @Test
    void aFinalizeCallWhileTheBackupRunsAnswersEveryChildAsItsAnnotation() {
        for (boolean storesTheNull : new boolean[] {true, false}) {
            ObjectNode request = (ObjectNode) Fixtures.json(BACKING_UP);
            ObjectNode claim = (ObjectNode) request.at("/children/StatefulSet.apps~1v1/orders/spec/volumeClaimTemplates/0/metadata");
            assertTrue(claim.path("creationTimestamp").isNull(), "v1.20 stored a null");
            if (!storesTheNull) {
                claim.remove("creationTimestamp");
            }
            JsonNode answer = finalize(request);

            assertEquals(4, answer.path("children").size());
            for (JsonNode child : answer.path("children")) {
                String group = child.path("kind").asText() + "." + child.path("apiVersion").asText();
                String annotation = annotation(request, group, child.path("metadata").path("name").asText());
                String expected = storesTheNull ? annotation.replace(NAME_ONLY, NULL_CLAIM_METADATA) : annotation;
                assertEquals(expected, CanonicalJson.string(child), "stores the null: " + storesTheNull);
            }
        }
    }

    /** The annotation is kept byte for byte, even a null an older metahook's sync wrote on v1.20. */
    @Test
    void theAnnotationIsKeptThroughTheWholeTeardown() {
        ObjectNode request = (ObjectNode) Fixtures.json(BACKING_UP);
        ObjectNode annotations = (ObjectNode) request.at("/children/StatefulSet.apps~1v1/orders/metadata/annotations");
        String asTheDrainStepLeftIt = annotations.path(LastAppliedConfiguration.ANNOTATION).asText()
                .replace("\"metadata\":{\"name\":\"data\"}", NULL_CLAIM_METADATA);
        annotations.put(LastAppliedConfiguration.ANNOTATION, asTheDrainStepLeftIt);

        JsonNode answer = finalize(request);

        assertEquals(asTheDrainStepLeftIt, CanonicalJson.string(child(answer, "StatefulSet", "orders")));
    }

    /**
     * 0.1.0 answered that request with the claim template as its annotation had it, without the null
     * v1.20 stored, so Metacontroller replaced the list and updated the StatefulSet on every call. Now the
     * claim template takes the observed StatefulSet's form: against the StatefulSet as v1.20 (and any server
     * up to 1.33) stores it, and as 1.34 and later store it (where the answer is 0.1.0's), the merge finds
     * nothing to change.
     */
    @Test
    void theAnswerMetahookGaveOnTheRealClusterNowLeavesTheStatefulSetAsStoredOnEveryVersion() {
        ObjectNode captured = (ObjectNode) Fixtures.json("captured/v1.5.14-metahook-database-finalize-backingup.response.json");
        for (boolean storesTheNull : new boolean[] {true, false}) {
            ObjectNode request = (ObjectNode) Fixtures.json(BACKING_UP);
            ObjectNode observed = (ObjectNode) request.at("/children/StatefulSet.apps~1v1/orders");
            if (!storesTheNull) {
                ((ObjectNode) observed.at("/spec/volumeClaimTemplates/0/metadata")).remove("creationTimestamp");
            }
            JsonNode answer = finalize(request);
            if (!storesTheNull) {
                assertEquals(sortedByKind(captured.path("children")), sortedByKind(answer.path("children")));
            }
            JsonNode merged = ThreeWayMerge.merge(observed, LastAppliedConfiguration.of((ObjectNode) observed).orElseThrow(),
                    child(answer, "StatefulSet", "orders"));
            assertEquals(observed.get("spec"), merged.get("spec"), "no update: drained, its templates as stored; stores the null: "
                    + storesTheNull);
        }
    }

    /**
     * Without a last-applied annotation (an adopted StatefulSet, or one whose annotation was removed)
     * the drain starts from the observed object as v1.37.2 stores it: only {@code replicas} changes.
     */
    @Test
    void theDrainWithoutAnAnnotationChangesOnlyTheReplicas() {
        ObjectNode request = (ObjectNode) Fixtures.json(DRAIN);
        ObjectNode observed = (ObjectNode) request.at("/children/StatefulSet.apps~1v1/inventory");
        ((ObjectNode) observed.at("/metadata/annotations")).remove(LastAppliedConfiguration.ANNOTATION);
        assertTrue(observed.at("/spec/volumeClaimTemplates/0/metadata/creationTimestamp").isNull(), "v1.20 stored a null");
        ((ObjectNode) observed.at("/spec/volumeClaimTemplates/0/metadata")).remove("creationTimestamp");

        JsonNode statefulSet = child(finalize(request), "StatefulSet", "inventory");
        assertTrue(statefulSet.at("/spec/volumeClaimTemplates/0/metadata/creationTimestamp").isMissingNode(), statefulSet.toString());
        assertEquals(0, statefulSet.at("/spec/replicas").intValue());
        JsonNode merged = ThreeWayMerge.merge(observed, null, statefulSet);
        ObjectNode expected = observed.get("spec").deepCopy();
        expected.put("replicas", 0);
        assertEquals(expected, merged.get("spec"), "the one change is replicas");
        assertEquals(statefulSet, child(finalize(request), "StatefulSet", "inventory"), "and the same on the next call");
    }

    private static List<JsonNode> sortedByKind(JsonNode children) {
        List<JsonNode> sorted = new ArrayList<>();
        children.forEach(sorted::add);
        sorted.sort(Comparator.comparing(child -> child.path("kind").asText() + "/" + child.at("/metadata/name").asText()));
        return sorted;
    }
}
