package dev.metahook.internal.sim;

import dev.metahook.testkit.CheckReport;
import static dev.metahook.testing.StoredObjects.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.api.ChildId;
import dev.metahook.internal.contract.Breach;
import dev.metahook.internal.wire.Json;
import dev.metahook.testing.TestServer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import dev.metahook.api.Child;
import dev.metahook.api.Controllers;
import dev.metahook.api.CustomResource;
import dev.metahook.api.Declaration;
import dev.metahook.api.Result;
import dev.metahook.api.Update;
import dev.metahook.internal.registration.ControllerManifest;
import dev.metahook.testkit.Manifests;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * A CompositeController's {@code parentResource.labelSelector} (Metacontroller v4.6.0 and later): a parent it
 * does not select is never synced, and {@code check} says so instead of "clean"; a parent that stops matching is
 * finalized when the controller has a finalize hook, then left alone (issue 37, D2).
 */
class ParentSelectorTest {
    private static final ChildId PARENT = new ChildId("example.com/v1", "Widget", "default", "w");
    private static final ChildId CHILD = new ChildId("v1", "ConfigMap", "default", "w-data");

    /** Widgets labelled {@code team=a}, with ConfigMap children, and a finalize hook when asked. */
    private static ControllerSpec selecting(boolean finalize) {
        return ControllerSpec.read(json("{'apiVersion':'metacontroller.k8s.io/v1alpha1','kind':'CompositeController',"
                + "'metadata':{'name':'widget-controller'},'spec':{'generateSelector':true,'parentResource':{'apiVersion':'example.com/v1',"
                + "'resource':'widgets','labelSelector':{'matchLabels':{'team':'a'}}},"
                + "'childResources':[{'apiVersion':'v1','resource':'configmaps','updateStrategy':{'method':'InPlace'}}],"
                + "'hooks':{'sync':{'webhook':{'url':'http://hooks/sync'}}" + (finalize ? ",'finalize':{'webhook':{'url':'http://hooks/finalize'}}" : "")
                + "}}}"));
    }

    /** Sync answers one ConfigMap; finalize answers none, finalized once none is observed. Every call kept. */
    private static HookClient widgets(List<JsonNode> calls) {
        return (hook, body) -> {
            JsonNode request = Json.parse(body);
            calls.add(request);
            String answer = hook.equals("finalize")
                    ? "{'children':[],'finalized':" + request.at("/children/ConfigMap.v1").isEmpty() + "}"
                    : "{'status':{'ready':true},'children':[{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'w-data'},'data':{'a':'b'}}]}";
            return new HookClient.Reply(200, Map.of(), answer.replace('\'', '"').getBytes(StandardCharsets.UTF_8), Duration.ZERO, null);
        };
    }

    private static ObjectNode widget(String labels) {
        return (ObjectNode) json("{'apiVersion':'example.com/v1','kind':'Widget','metadata':{'name':'w','namespace':'default','labels':"
                + labels + "},'spec':{'size':1}}");
    }

    @Test
    void aParentTheSelectorDoesNotSelectIsNeverSynced() {
        List<JsonNode> calls = new ArrayList<>();
        Simulation simulation = new Simulation(selecting(true), widgets(calls), TestServer.CLOCK);
        ChildId parent = simulation.create(widget("{'team':'b'}"));
        simulation.converge(parent, 10, false);
        assertEquals(List.of(), calls, "no hook call for a parent the labelSelector does not select");
        assertFalse(simulation.store().get(parent).orElseThrow().path("metadata").has("finalizers"), "not even the finalizer is added");
        assertFalse(simulation.store().get(CHILD).isPresent());
    }

    @Test
    void checkSaysAParentTheSelectorDoesNotSelectIsNeverCheckedRatherThanClean() {
        List<JsonNode> calls = new ArrayList<>();
        CheckReport report = new Checker(selecting(false), widgets(calls), TestServer.CLOCK, 10).check(widget("{'team':'b'}"), null);
        assertEquals(List.of(new Breach("no-progress", "the CompositeController's parentResource.labelSelector {\"matchLabels\":{\"team\":\"a\"}}"
                + " does not select this Widget (labels {\"team\":\"b\"}), so Metacontroller never calls the hook for it and nothing was checked")),
                report.breaches().stream().map(found -> new Breach(found.kind(), found.message())).toList());
        assertEquals(0, report.calls());
        assertFalse(report.clean());
    }

    @Test
    void aParentTheSelectorSelectsLivesItsWholeLife() {
        List<JsonNode> calls = new ArrayList<>();
        CheckReport report = new Checker(selecting(true), widgets(calls), TestServer.CLOCK, 10).check(widget("{'team':'a'}"), null);
        assertEquals(List.of(), report.breaches());
        assertTrue(report.calls() > 0);
    }

    @Test
    void aParentThatStopsMatchingIsFinalizedThenLeftAlone() {
        List<JsonNode> calls = new ArrayList<>();
        Simulation simulation = new Simulation(selecting(true), widgets(calls), TestServer.CLOCK);
        ChildId parent = simulation.create(widget("{'team':'a'}"));
        assertTrue(simulation.converge(parent, 10, false).converged());
        assertTrue(simulation.store().get(CHILD).isPresent());
        calls.clear();

        ObjectNode moved = simulation.store().get(parent).orElseThrow();
        ((ObjectNode) moved.withObjectProperty("metadata").get("labels")).put("team", "b");
        simulation.store().update(moved);
        assertTrue(simulation.converge(parent, 10, false).converged());

        assertEquals(List.of(true, true), calls.stream().map(call -> call.path("finalizing").asBoolean()).toList(),
                "finalize, not sync, for a parent no longer selected, until it says finalized");
        assertFalse(simulation.store().get(CHILD).isPresent(), "the child the finalize answer left out is deleted");
        assertFalse(simulation.store().get(parent).orElseThrow().path("metadata").has("finalizers"), "the finalizer goes, the parent stays");
        calls.clear();
        simulation.converge(parent, 10, false);
        assertEquals(List.of(), calls, "then it is left alone");
    }

    /** Pruned by Metacontroller v4.17.2's own CompositeController CRD, the generated manifest loses nothing. */
    @Test
    void theGeneratedSelectorIsWhereMetacontrollerDeclaresIt() throws Exception {
        Controllers controllers = Controllers.builder().composite("widget", Widget.class, (widget, context) -> Result.keepingObserved(),
                Declaration.children(Child.of(ConfigMap.class, Update.IN_PLACE)).labelSelector(new LabelSelectorBuilder()
                        .addToMatchLabels("team", "a").addNewMatchExpression().withKey("tier").withOperator("In").withValues("gold")
                        .endMatchExpression().build())).build();
        ObjectNode manifest = ControllerManifest.of(controllers.get("widget").orElseThrow(), "widgets", "widget-system");
        assertEquals("{\"matchExpressions\":[{\"key\":\"tier\",\"operator\":\"In\",\"values\":[\"gold\"]}],\"matchLabels\":{\"team\":\"a\"}}",
                manifest.at("/spec/parentResource/labelSelector").toString());
        JsonNode schema = compositeControllerSchema();
        ObjectNode pruned = manifest.deepCopy();
        assertEquals(List.of(), SchemaPruning.prune(schema.path("properties").path("spec"), pruned.get("spec"), "spec"));
        assertEquals(manifest, pruned);

        ((ObjectNode) pruned.at("/spec/parentResource")).put("annotationSelector", "x");
        assertEquals(List.of("spec.parentResource.annotationSelector"),
                SchemaPruning.prune(schema.path("properties").path("spec"), pruned.get("spec"), "spec"), "a field it does not declare is dropped");
    }

    private static JsonNode compositeControllerSchema() throws Exception {
        Path crds = Path.of("src/test-support/src/main/resources/fixtures/metacontroller/metacontroller-crds-v1-v4.17.2.yaml");
        for (ObjectNode crd : Manifests.readAll(crds, ObjectNode.class)) {
            if ("CompositeController".equals(crd.at("/spec/names/kind").asText())) {
                return crd.at("/spec/versions/0/schema/openAPIV3Schema");
            }
        }
        throw new AssertionError(crds + " holds no CompositeController CRD");
    }

    @Group("example.com")
    @Version("v1")
    public static class Widget extends CustomResource<Object, Object> implements Namespaced {
    }

    @Test
    void aParentWithoutLabelsIsSelectedByNoSelectorOnly() {
        List<JsonNode> calls = new ArrayList<>();
        ObjectNode manifest = selecting(false).manifest().deepCopy();
        ((ObjectNode) manifest.at("/spec/parentResource")).remove("labelSelector");
        Simulation simulation = new Simulation(ControllerSpec.read(manifest), widgets(calls), TestServer.CLOCK);
        ChildId parent = simulation.create(widget("{}"));
        assertTrue(simulation.converge(parent, 10, false).converged());
        assertTrue(simulation.store().get(CHILD).isPresent());
        assertEquals(PARENT, parent);
    }

    @Test
    void anUpdatedParentsLabelsDecideWhetherItIsSyncedAtAll() {
        List<JsonNode> calls = new ArrayList<>();
        Simulation simulation = new Simulation(selecting(false), widgets(calls), TestServer.CLOCK);
        ChildId parent = simulation.create(widget("{'team':'a'}"));
        simulation.converge(parent, 10, true);
        ObjectNode moved = widget("{'team':'b'}");
        moved.withObjectProperty("spec").put("size", 2);
        simulation.edit(parent, moved);
        simulation.converge(parent, 10, true);
        assertEquals("{\"team\":\"b\"}", simulation.store().get(parent).orElseThrow().at("/metadata/labels").toString());
        assertTrue(calls.stream().noneMatch(call -> call.at("/parent/spec/size").asInt() == 2),
                "the labelSelector no longer selects the parent: its new spec is never synced");
    }
}
