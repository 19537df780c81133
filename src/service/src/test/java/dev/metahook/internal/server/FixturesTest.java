package dev.metahook.internal.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.api.Cleaner;
import dev.metahook.api.Cleanup;
import dev.metahook.api.CompositeController;
import dev.metahook.api.Context;
import dev.metahook.api.Controllers;
import dev.metahook.api.Customizer;
import dev.metahook.api.ObservedChildren;
import dev.metahook.api.RelatedRule;
import dev.metahook.api.Result;
import dev.metahook.examples.Examples;
import dev.metahook.testing.Fixtures;
import dev.metahook.testing.TestServer;
import dev.metahook.internal.wire.Json;
import dev.metahook.internal.wire.ResponseCheck;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Metacontroller's own request bodies through the real server: the upstream examples' requests
 * answered by their ports ({@code dev.metahook.examples}) exactly as the originals answer them, the
 * customize rules of secret-propagation and captured requests by small stand-ins; every answer is
 * one Metacontroller's strict decoder accepts.
 */
class FixturesTest {
    @RegisterExtension
    static final TestServer server = TestServer.of(() -> Examples.addTo(Controllers.builder())
                .composite("secretpropagation", GenericKubernetesResource.class, new SecretPropagation())
                .composite("keep", GenericKubernetesResource.class, new CatSetTeardown())
                .build());

    /** Finalize drops the Pod and keeps the claims, as the CatSet example does, until nothing is left. */
    static final class CatSetTeardown implements CompositeController<GenericKubernetesResource, Object>,
            Cleaner<GenericKubernetesResource, Object> {
        @Override
        public Result<Object> sync(GenericKubernetesResource parent, Context context) {
            return Result.keepingObserved();
        }

        @Override
        public Cleanup<Object> cleanup(GenericKubernetesResource parent, Context context) {
            ObservedChildren children = context.children();
            List<PersistentVolumeClaim> claims = children.all(PersistentVolumeClaim.class).stream()
                    .map(claim -> children.lastApplied(PersistentVolumeClaim.class, claim.getMetadata().getName()).orElseThrow())
                    .toList();
            return Cleanup.inProgress(Result.of(claims).deletingUnlisted().withStatus(Map.of("replicas", 0)));
        }
    }

    /** The secret-propagation example's rules: the source Secret by name, the target namespaces by label. */
    static final class SecretPropagation implements CompositeController<GenericKubernetesResource, Object>,
            Customizer<GenericKubernetesResource> {
        @Override
        public Result<Object> sync(GenericKubernetesResource parent, Context context) {
            return Result.keepingObserved();
        }

        @Override
        @SuppressWarnings("unchecked")
        public List<RelatedRule> customize(GenericKubernetesResource parent, Context context) {
            Map<String, Object> spec = (Map<String, Object>) parent.getAdditionalProperties().get("spec");
            Map<String, Object> selector = (Map<String, Object>) spec.get("targetNamespaceLabelSelector");
            return List.of(
                    RelatedRule.named("v1", "secrets", (String) spec.get("sourceName")).inNamespace((String) spec.get("sourceNamespace")),
                    RelatedRule.selected("v1", "namespaces", new LabelSelectorBuilder()
                            .withMatchLabels((Map<String, String>) selector.get("matchLabels")).build()));
        }
    }

    private static JsonNode answer(String path, String fixture) {
        byte[] body = server.post(path, Fixtures.bytes(fixture)).statusCode(200).contentType("application/json").extract().asByteArray();
        return Json.parse(body);
    }

    @Test
    void blueGreenSyncAnswersAsTheOriginal() {
        JsonNode response = answer("/bluegreen/sync", "metacontroller/01-composite-sync-v1.request.json");
        assertEquals(List.of(), ResponseCheck.composite(response, true));
        JsonNode expected = Fixtures.json("metacontroller/01-composite-sync-v1.response.json");
        assertEquals(sortedByName(expected.get("children")), sortedByName(response.get("children")));
        assertEquals(expected.get("status"), response.get("status"));
    }

    @Test
    void catSetFinalizeDropsThePodAndKeepsTheClaims() {
        JsonNode response = answer("/catset/finalize", "metacontroller/02-composite-finalize-v1.request.json");
        assertEquals(List.of(), ResponseCheck.composite(response, true));
        JsonNode expected = Fixtures.json("metacontroller/02-composite-finalize-v1.response.json");
        assertEquals(false, response.get("finalized").booleanValue());
        assertEquals(sortedByName(expected.get("children")), sortedByName(response.get("children")));
        assertEquals(expected.get("status"), response.get("status"));
    }

    @Test
    void servicePerPodDecoratorAnswersAServicePerPod() {
        JsonNode response = answer("/service-per-pod/sync", "metacontroller/03-decorator-sync-v1.request.json");
        assertEquals(List.of(), ResponseCheck.decorator(response, true));
        JsonNode expected = Fixtures.json("metacontroller/03-decorator-sync-v1.response.json");
        assertEquals(sortedByName(expected.get("attachments")), sortedByName(response.get("attachments")));
        assertTrue(!response.has("status"), "a decorator that sets no status leaves the target's alone");
    }

    @Test
    void secretPropagationCustomizeAnswersTheExamplesRules() {
        JsonNode response = answer("/secretpropagation/customize", "metacontroller/04-customize-v1.request.json");
        assertEquals(List.of(), ResponseCheck.customize(response, true));
        assertEquals(Fixtures.json("metacontroller/04-customize-v1.response.json"), response);
    }

    @Test
    void requestsCapturedFromARealMetacontrollerAreServed() {
        JsonNode sync = answer("/keep/sync", "captured/v1.5.14-webapp-sync-observed.request.json");
        assertEquals(List.of(), ResponseCheck.composite(sync, true));
        assertEquals(2, sync.get("children").size(), "both observed children kept");
        JsonNode finalize = answer("/keep/finalize", "captured/v1.5.14-database-finalize-drain.request.json");
        assertEquals(List.of(), ResponseCheck.composite(finalize, true));
        assertEquals(false, finalize.get("finalized").booleanValue());
    }

    /** Children by kind and name, with the parent's namespace left implicit as the upstream examples leave it. */
    private static List<JsonNode> sortedByName(JsonNode children) {
        List<JsonNode> list = new ArrayList<>();
        children.forEach(child -> {
            JsonNode copy = child.deepCopy();
            ((ObjectNode) copy.get("metadata")).remove("namespace");
            list.add(copy);
        });
        list.sort(Comparator.comparing(c -> c.path("kind").asText() + "/" + c.path("metadata").path("name").asText()));
        return list;
    }
}
