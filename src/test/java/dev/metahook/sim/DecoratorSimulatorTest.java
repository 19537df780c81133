package dev.metahook.sim;

import static dev.metahook.testing.StoredObjects.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.testing.TestServer;
import dev.metahook.wire.Json;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** A DecoratorController pass: labels merged, status left alone unless answered, attachments applied. */
class DecoratorSimulatorTest {
    private static final ObjectRef TARGET = new ObjectRef("apps/v1", "StatefulSet", "default", "web");

    @Test
    void decoratesTheTargetAndManagesItsAttachments() {
        AtomicReference<String> answer = new AtomicReference<>("{'labels':{'decorated':'yes','old':null},"
                + "'attachments':[{'apiVersion':'v1','kind':'Service','metadata':{'name':'web-0'},'spec':{'ports':[{'port':80}]}}]}");
        ControllerSpec spec = ControllerSpec.read(json("{'apiVersion':'metacontroller.k8s.io/v1alpha1','kind':'DecoratorController',"
                + "'metadata':{'name':'service-per-pod'},'spec':{'resources':[{'apiVersion':'apps/v1','resource':'statefulsets'}],"
                + "'attachments':[{'apiVersion':'v1','resource':'services','updateStrategy':{'method':'InPlace'}}],"
                + "'hooks':{'sync':{'webhook':{'url':'http://hooks/sync'}},'finalize':{'webhook':{'url':'http://hooks/finalize'}}}}}"));
        ObjectStore store = new ObjectStore(TestServer.CLOCK);
        DecoratorSimulator simulator = new DecoratorSimulator(spec, store, (hook, body) -> new HookClient.Reply(200, Map.of(),
                (hook.equals("finalize") ? "{'attachments':[],'finalized':true}" : answer.get()).replace('\'', '"')
                        .getBytes(StandardCharsets.UTF_8), Duration.ZERO, null));
        store.create(json("{'apiVersion':'apps/v1','kind':'StatefulSet','metadata':{'name':'web','namespace':'default',"
                + "'labels':{'old':'x','app':'web'}},'spec':{'replicas':1},'status':{'replicas':1}}"));

        simulator.sync(TARGET);
        ObjectNode target = store.get(TARGET).orElseThrow();
        assertEquals(json("{'app':'web','decorated':'yes'}"), target.at("/metadata/labels"));
        assertEquals(json("{'replicas':1}"), target.get("status"), "no status in the answer leaves it alone");
        assertEquals("metacontroller.io/decoratorcontroller-service-per-pod", target.at("/metadata/finalizers/0").asText());
        ObjectNode service = store.get(new ObjectRef("v1", "Service", "default", "web-0")).orElseThrow();
        assertEquals("service-per-pod", service.at("/metadata/annotations/metacontroller.k8s.io~1decorator-controller").asText());
        assertEquals(target.at("/metadata/uid"), service.at("/metadata/ownerReferences/0/uid"));

        answer.set("{'status':{'decorated':true},'attachments':[]}");
        simulator.sync(TARGET);
        assertFalse(store.get(new ObjectRef("v1", "Service", "default", "web-0")).isPresent());
        assertEquals(json("{'decorated':true}"), store.get(TARGET).orElseThrow().get("status"));

        store.delete(TARGET);
        assertTrue(simulator.sync(TARGET).finalized());
        assertFalse(store.get(TARGET).isPresent());
    }
}
