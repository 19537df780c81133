package dev.metahook.internal.sim;

import static dev.metahook.testing.StoredObjects.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahook.api.ChildId;
import dev.metahook.testing.TestServer;
import dev.metahook.internal.wire.Json;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The related objects Metacontroller sends after customize: selected by the answered rules, keyed like children. */
class CustomizeTest {
    private static final ChildId PARENT = new ChildId("test.metahook.dev/v1", "Widget", "default", "w");
    private JsonNode lastSync;

    /** A composite controller whose customize answers {@code rules}; every sync request is kept. */
    private CompositeSimulator simulator(String version, String rules) {
        ControllerSpec spec = ControllerSpec.read(json("{'apiVersion':'metacontroller.k8s.io/v1alpha1','kind':'CompositeController',"
                + "'metadata':{'name':'widgets'},'spec':{'generateSelector':true,"
                + "'parentResource':{'apiVersion':'test.metahook.dev/v1','resource':'widgets'},'childResources':[],"
                + "'hooks':{'sync':{'version':'" + version + "','webhook':{'url':'http://hooks/sync'}},"
                + "'customize':{'version':'" + version + "','webhook':{'url':'http://hooks/customize'}}}}}"));
        ObjectStore store = new ObjectStore(TestServer.CLOCK);
        for (String object : new String[] {
                "{'apiVersion':'v1','kind':'Endpoints','metadata':{'name':'db','namespace':'default','labels':{'tier':'db'}}}",
                "{'apiVersion':'v1','kind':'Endpoints','metadata':{'name':'db','namespace':'other','labels':{'tier':'db'}}}",
                "{'apiVersion':'v1','kind':'Endpoints','metadata':{'name':'web','namespace':'default','labels':{'tier':'web'}}}",
                "{'apiVersion':'v1','kind':'Namespace','metadata':{'name':'other','labels':{'team':'a'}}}",
                "{'apiVersion':'v1','kind':'Namespace','metadata':{'name':'default'}}",
                "{'apiVersion':'test.metahook.dev/v1','kind':'Widget','metadata':{'name':'w','namespace':'default','uid':'u-1'}}"}) {
            store.create(json(object));
        }
        return new CompositeSimulator(spec, store, (hook, body) -> {
            if (hook.equals("sync")) {
                lastSync = Json.parse(body);
            }
            return new HookClient.Reply(200, Map.of(), (hook.equals("customize") ? "{'relatedResources':" + rules + "}" : "{'children':[]}")
                    .replace('\'', '"').getBytes(StandardCharsets.UTF_8), Duration.ZERO, null);
        });
    }

    @Test
    void aV1HookOfANamespacedParentSeesItsOwnNamespaceKeyedByName() {
        CompositeSimulator simulator = simulator("v1", "[{'apiVersion':'v1','resource':'endpoints','labelSelector':{'matchLabels':{'tier':'db'}}},"
                + "{'apiVersion':'v1','resource':'namespaces'}]");
        assertEquals(CompositeSimulator.Outcome.APPLIED, simulator.sync(PARENT).outcome());
        assertEquals(json("['db']"), Json.mapper().valueToTree(fieldNames(lastSync.at("/related/Endpoints.v1"))),
                "Endpoints is the resource endpoints (the model's plural), in the parent's namespace only");
        assertEquals(0, lastSync.at("/related/Namespace.v1").size(), "cluster-scoped objects are dropped from a v1 request, the group stays");
        assertEquals(List.of(1, 0), simulator.customize().history().get(0).rules().stream().map(Customize.Selected::objects).toList());
    }

    @Test
    void aV2HookSeesOtherNamespacesAndClusterScopedObjectsKeyedUniformly() {
        CompositeSimulator simulator = simulator("v2", "[{'apiVersion':'v1','resource':'endpoints','names':['db'],'namespace':'*'},"
                + "{'apiVersion':'v1','resource':'namespaces','labelSelector':{'matchLabels':{'team':'a'}}},"
                + "{'apiVersion':'v1','resource':'endpoints','namespaceSelector':{'matchLabels':{'team':'a'}}}]");
        assertEquals(CompositeSimulator.Outcome.APPLIED, simulator.sync(PARENT).outcome());
        assertEquals(json("['default/db','other/db']"), Json.mapper().valueToTree(fieldNames(lastSync.at("/related/Endpoints.v1"))));
        assertEquals(json("['other']"), Json.mapper().valueToTree(fieldNames(lastSync.at("/related/Namespace.v1"))));
    }

    /** Metacontroller's configmap-list-v2 example: a v2 rule with a labelSelector and no namespace looks in every namespace. */
    @Test
    void aV2RuleWithoutNamespaceSeesEveryNamespace() {
        CompositeSimulator simulator = simulator("v2", "[{'apiVersion':'v1','resource':'endpoints','labelSelector':{'matchLabels':{'tier':'db'}}},"
                + "{'apiVersion':'v1','resource':'endpoints','names':['web']}]");
        assertEquals(CompositeSimulator.Outcome.APPLIED, simulator.sync(PARENT).outcome());
        assertEquals(json("['default/db','default/web','other/db']"), Json.mapper().valueToTree(fieldNames(lastSync.at("/related/Endpoints.v1"))));
        assertEquals(List.of(2, 1), simulator.customize().history().get(0).rules().stream().map(Customize.Selected::objects).toList());
        CompositeSimulator v1 = simulator("v1", "[{'apiVersion':'v1','resource':'endpoints','labelSelector':{'matchLabels':{'tier':'db'}}}]");
        v1.sync(PARENT);
        assertEquals(List.of(1), v1.customize().history().get(0).rules().stream().map(Customize.Selected::objects).toList(),
                "a v1 hook of a namespaced parent: its own namespace only");
    }

    @Test
    void aRuleMetacontrollerRefusesFailsTheSyncAndNamesTheRule() {
        CompositeSimulator simulator = simulator("v1", "[{'apiVersion':'v1','resource':'endpoints','namespace':'other'}]");
        CompositeSimulator.Pass pass = simulator.sync(PARENT);
        assertEquals(CompositeSimulator.Outcome.FAILED, pass.outcome());
        assertEquals("customize", pass.call().hook());
        assertTrue(pass.error().contains("/relatedResources/0: requested related object namespace other differs from parent object namespace default"),
                pass.error());
        CompositeSimulator mixed = simulator("v2", "[{'apiVersion':'v1','resource':'endpoints','names':['db'],'labelSelector':{}}]");
        assertTrue(mixed.sync(PARENT).error().contains("names cannot be combined with labelSelector"));
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
