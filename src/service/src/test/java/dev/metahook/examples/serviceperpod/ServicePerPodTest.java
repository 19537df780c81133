package dev.metahook.examples.serviceperpod;

import static dev.metahook.examples.ExampleCalls.asUpstreamWritesIt;
import static dev.metahook.examples.ExampleCalls.manifest;
import static dev.metahook.examples.ExampleCalls.post;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.api.ChildId;
import dev.metahook.examples.ExampleCalls;
import dev.metahook.internal.sim.HttpHook;
import dev.metahook.internal.sim.ControllerSpec;
import dev.metahook.internal.sim.DecoratorSimulator;
import dev.metahook.internal.sim.Ids;
import dev.metahook.internal.sim.ObjectStore;
import dev.metahook.testing.Fixtures;
import dev.metahook.testing.TestServer;
import dev.metahook.internal.wire.CanonicalJson;
import dev.metahook.internal.wire.Json;
import dev.metahook.internal.wire.ResponseCheck;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Both service-per-pod decorators through the stock server: the original's request, finalize, opt-out, the pod-name label. */
class ServicePerPodTest {
    private static final String FIXTURE = "metacontroller/03-decorator-sync-v1";
    @RegisterExtension
    static final TestServer server = TestServer.of(ExampleCalls::controllers);

    @Test
    void answersTheOriginalsRequestAsTheOriginalDoes() {
        JsonNode answer = post(server, "/service-per-pod/sync", Fixtures.bytes(FIXTURE + ".request.json"));
        assertEquals(List.of(), ResponseCheck.decorator(answer, true));
        assertEquals(asUpstreamWritesIt(Fixtures.json(FIXTURE + ".response.json"), "attachments"), asUpstreamWritesIt(answer, "attachments"));
    }

    @Test
    void theSameRequestGivesTheSameBytesWhateverItsKeyOrder() {
        ExampleCalls.assertSameBytesWhateverKeyOrder(server, "/service-per-pod/sync", Fixtures.bytes(FIXTURE + ".request.json"), 11);
    }

    @Test
    void aScaleDownTakesTheServicesOfThePodsThatWent() {
        ObjectNode request = (ObjectNode) Fixtures.json(FIXTURE + ".request.json");
        request.withObjectProperty("object").withObjectProperty("spec").put("replicas", 1);
        assertEquals(List.of("nginx-0"), names(post(server, "/service-per-pod/sync", CanonicalJson.bytes(request))));
    }

    @Test
    void finalizeAsksForNoServicesAndIsDoneWhenNoneIsLeft() {
        ObjectNode request = (ObjectNode) Fixtures.json(FIXTURE + ".request.json");
        request.put("finalizing", true);
        request.withObjectProperty("object").withObjectProperty("metadata").withObjectProperty("annotations").remove("service-per-pod-label");
        JsonNode working = post(server, "/service-per-pod/finalize", CanonicalJson.bytes(request));
        assertEquals(List.of(), names(working));
        assertFalse(working.get("finalized").booleanValue());
        request.withObjectProperty("attachments").withObjectProperty("Service.v1").removeAll();
        JsonNode done = post(server, "/service-per-pod/finalize", CanonicalJson.bytes(request));
        assertEquals(Json.parse("{\"attachments\":[],\"finalized\":true}".getBytes()), done);
    }

    @Test
    void aBadPortsAnnotationKeepsTheServicesAsTheyWere() {
        ObjectNode request = (ObjectNode) Fixtures.json(FIXTURE + ".request.json");
        request.withObjectProperty("object").withObjectProperty("metadata").withObjectProperty("annotations").put("service-per-pod-ports", "80:http");
        JsonNode answer = post(server, "/service-per-pod/sync", CanonicalJson.bytes(request));
        assertEquals(asUpstreamWritesIt(Fixtures.json(FIXTURE + ".response.json"), "attachments").get("attachments"),
                withoutDecoratorAnnotation(asUpstreamWritesIt(answer, "attachments").get("attachments")));
        assertFalse(answer.has("status"), "a StatefulSet's status is not the decorator's");
    }

    @Test
    void labelsAnAnnotatedPodWithItsOwnName() {
        ObjectNode pod = Json.object().put("apiVersion", "v1").put("kind", "Pod");
        pod.putObject("metadata").put("name", "nginx-1").put("namespace", "default").put("uid", "7d0c5a4e-1b2f-4c3d-8e9f-0a1b2c3d4e5f")
                .putObject("annotations").put("pod-name-label", "pod-name");
        JsonNode answer = post(server, "/pod-name-label/sync", CanonicalJson.bytes(decoratorRequest(podNameLabelController(), pod)));
        assertEquals(Json.parse("{\"labels\":{\"pod-name\":\"nginx-1\"},\"attachments\":[]}".getBytes()), answer);
    }

    @Test
    void servicesComeWithTheStatefulSetFollowItsScaleAndGoBeforeIt() {
        ControllerSpec spec = ControllerSpec.read(manifest("service-per-pod", "controller.yaml"));
        ObjectStore store = new ObjectStore(TestServer.CLOCK);
        try (HttpHook hooks = ExampleCalls.hooks(spec, server)) {
            DecoratorSimulator decorator = new DecoratorSimulator(spec, store, hooks);
            ChildId statefulSet = Ids.of(store.create(manifest("service-per-pod", "my-statefulset.yaml")));

            decorator.sync(statefulSet);
            assertEquals(List.of("nginx-0", "nginx-1", "nginx-2"), services(store));
            ObjectNode service = store.get(new ChildId("v1", "Service", "default", "nginx-2")).orElseThrow();
            assertEquals("nginx-2", service.at("/spec/selector/pod-name").asText());
            assertEquals(8080, service.at("/spec/ports/0/targetPort").intValue());
            long writes = store.writes();
            decorator.sync(statefulSet);
            assertEquals(writes, store.writes(), "a second sync changes nothing");

            ObjectNode scaled = store.get(statefulSet).orElseThrow();
            scaled.withObjectProperty("spec").put("replicas", 2);
            store.update(scaled);
            decorator.sync(statefulSet);
            assertEquals(List.of("nginx-0", "nginx-1"), services(store));

            store.delete(statefulSet);
            assertTrue(store.get(statefulSet).isPresent(), "the decorator's finalizer holds the StatefulSet");
            decorator.sync(statefulSet);
            assertEquals(List.of(), services(store));
            assertTrue(decorator.sync(statefulSet).finalized());
            assertTrue(store.get(statefulSet).isEmpty());
        }
    }

    private static ObjectNode podNameLabelController() {
        return Json.parse(("{\"apiVersion\":\"metacontroller.k8s.io/v1alpha1\",\"kind\":\"DecoratorController\","
                + "\"metadata\":{\"name\":\"pod-name-label\"},\"spec\":{\"resources\":[{\"apiVersion\":\"v1\",\"resource\":\"pods\"}],"
                + "\"hooks\":{\"sync\":{\"webhook\":{\"url\":\"http://metahook.metahook-system/pod-name-label/sync\"}}}}}").getBytes())
                .deepCopy();
    }

    private static ObjectNode decoratorRequest(ObjectNode controller, ObjectNode object) {
        ObjectNode request = Json.object();
        request.set("controller", controller);
        request.set("object", object);
        request.putObject("attachments");
        request.putObject("related");
        request.put("finalizing", false);
        return request;
    }

    private static JsonNode withoutDecoratorAnnotation(JsonNode attachments) {
        JsonNode copy = attachments.deepCopy();
        copy.forEach(attachment -> {
            ObjectNode metadata = (ObjectNode) attachment.get("metadata");
            metadata.remove("annotations");
        });
        return copy;
    }

    private static List<String> names(JsonNode answer) {
        List<String> names = new ArrayList<>();
        answer.get("attachments").forEach(child -> names.add(child.at("/metadata/name").asText()));
        names.sort(null);
        return names;
    }

    private static List<String> services(ObjectStore store) {
        List<String> names = new ArrayList<>();
        store.all().stream().filter(object -> "Service".equals(object.path("kind").asText()))
                .forEach(object -> names.add(object.at("/metadata/name").asText()));
        names.sort(null);
        return names;
    }
}
