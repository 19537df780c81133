package dev.metahook.internal.sim;

import static dev.metahook.testing.StoredObjects.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahook.api.ChildId;
import dev.metahook.internal.contract.Breach;
import dev.metahook.testing.TestServer;
import dev.metahook.testkit.CheckReport;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A resource Metacontroller cannot find, other than a child's: a composite's parent resource, a decorator's resources, a
 * customize rule's resource. Each is one {@code unserved} breach saying what the release checked does; a resource of a
 * group whose definition the check was not given is assumed served.
 */
class UnservedResourcesTest {
    private static final Versions NEWEST = Versions.NEWEST;
    private static final Versions V2 = new Versions(KubernetesVersion.NEWEST, MetacontrollerVersion.parse("v2.6.1"));
    private static final Versions V1_5_5 = new Versions(KubernetesVersion.NEWEST, MetacontrollerVersion.parse("v1.5.5"));

    private static final JsonNode WIDGET = json("{'apiVersion':'example.com/v1','kind':'Widget','metadata':{'name':'w','namespace':'default'},"
            + "'spec':{}}");

    private static final String CONFIG_MAP = "{'status':{},'children':[{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'w-data'},"
            + "'data':{'a':'b'}}]}";

    /** The Widget CRD: v1 served with the status subresource, and {@code more} versions. */
    private static JsonNode widgets(String more) {
        return json("{'apiVersion':'apiextensions.k8s.io/v1','kind':'CustomResourceDefinition','metadata':{'name':'widgets.example.com'},"
                + "'spec':{'group':'example.com','scope':'Namespaced','names':{'kind':'Widget','plural':'widgets','singular':'widget',"
                + "'listKind':'WidgetList'},'versions':[{'name':'v1','served':true,'storage':true,'subresources':{'status':{}},"
                + "'schema':{'openAPIV3Schema':{'type':'object','x-kubernetes-preserve-unknown-fields':true}}}" + more + "]}}");
    }

    private static final JsonNode GIZMOS_V2 = json("{'apiVersion':'apiextensions.k8s.io/v1','kind':'CustomResourceDefinition',"
            + "'metadata':{'name':'gizmos.example.com'},'spec':{'group':'example.com','scope':'Namespaced','names':{'kind':'Gizmo',"
            + "'plural':'gizmos'},'versions':[{'name':'v2','served':true,'storage':true}]}}");

    /** A CompositeController of Widgets whose parentResource is {@code apiVersion resource}, with a customize hook when asked. */
    private static ControllerSpec composite(String apiVersion, String resource, boolean customize) {
        return ControllerSpec.read(json("{'apiVersion':'metacontroller.k8s.io/v1alpha1','kind':'CompositeController',"
                + "'metadata':{'name':'widget-controller'},'spec':{'generateSelector':true,'parentResource':{'apiVersion':'" + apiVersion
                + "','resource':'" + resource + "'},'childResources':[{'apiVersion':'v1','resource':'configmaps'}],"
                + "'hooks':{'sync':{'webhook':{'url':'http://hooks/sync'}}"
                + (customize ? ",'customize':{'webhook':{'url':'http://hooks/customize'}}" : "") + "}}}"));
    }

    /** Answers customize with {@code rules} and sync with one ConfigMap; every hook called is named in {@code called}. */
    private static HookClient hook(String rules, List<String> called) {
        return (name, body) -> {
            called.add(name);
            String answer = name.equals("customize") ? "{'relatedResources':" + rules + "}" : CONFIG_MAP;
            return new HookClient.Reply(200, Map.of("Content-Type", "application/json"),
                    answer.replace('\'', '"').getBytes(StandardCharsets.UTF_8), Duration.ZERO, null);
        };
    }

    private static CheckReport check(ControllerSpec spec, Versions versions, List<String> called) {
        return new Checker(spec, hook("[]", called), TestServer.CLOCK, 5, versions).check(WIDGET, null);
    }

    private static List<String> described(CheckReport report) {
        return report.breaches().stream().map(breach -> breach.kind() + " " + breach.hook() + " " + breach.object() + " " + breach.phase()
                + " " + breach.call() + ": " + breach.message()).toList();
    }

    @Test
    void aParentVersionItsDefinitionDoesNotListIsIgnoredForWantOfItsStatusSubresourceFromV300() {
        ControllerSpec spec = composite("example.com/v2", "widgets", false).withDefinitions(List.of(widgets("")));
        List<String> called = new ArrayList<>();
        assertEquals(List.of("unserved sync Widget default/w create 0: Metacontroller v4.17.2 cannot start the CompositeController"
                + " widget-controller: its parentResource example.com/v2 widgets is not served: the CustomResourceDefinition"
                + " widgets.example.com serves v1, and does not list v2. Metacontroller reads that CustomResourceDefinition, finds no"
                + " status subresource for v2 in it, and ignores the controller with a Warning event ([widget-controller] Sync error -"
                + " ignoring, CRD [...] does not have subresource 'Status' enabled) until the controller changes, so no hook is called"
                + " for any parent and nothing was checked. To fix: serve v2 in the CustomResourceDefinition widgets.example.com, or"
                + " name a version it serves"), described(check(spec, NEWEST, called)));
        assertEquals(List.of(), called, "Metacontroller calls no hook of a controller it does not start");

        assertEquals(List.of("unserved sync Widget default/w create 0: Metacontroller v2.6.1 cannot start the CompositeController"
                + " widget-controller: its parentResource example.com/v2 widgets is not served: the CustomResourceDefinition"
                + " widgets.example.com serves v1, and does not list v2. Metacontroller's discovery does not find it: it logs the error"
                + " (discovery: can't find resource widgets in apiVersion example.com/v2) and retries with backoff, recording no event,"
                + " so no hook is called for any parent and nothing was checked. To fix: serve v2 in the CustomResourceDefinition"
                + " widgets.example.com, or name a version it serves"), described(check(spec, V2, called)));
        assertEquals(List.of(), called);
    }

    @Test
    void aVersionListedButNotServedFailsInDiscoveryWithACreateErrorFromV156() {
        ControllerSpec spec = composite("example.com/v2", "widgets", false).withDefinitions(List.of(widgets(
                ",{'name':'v2','served':false,'storage':false,'subresources':{'status':{}}}")));
        assertEquals(List.of("unserved sync Widget default/w create 0: Metacontroller v4.17.2 cannot start the CompositeController"
                + " widget-controller: its parentResource example.com/v2 widgets is not served: the CustomResourceDefinition"
                + " widgets.example.com serves v1, and lists v2 with served: false. Metacontroller finds the status subresource of v2"
                + " in that CustomResourceDefinition, then its discovery does not find the resource: it records a CreateError event on"
                + " the controller (Cannot create new controller: discovery: can't find resource widgets in apiVersion example.com/v2)"
                + " and retries with backoff, so no hook is called for any parent and nothing was checked. To fix: serve v2 in the"
                + " CustomResourceDefinition widgets.example.com, or name a version it serves"),
                described(check(spec, NEWEST, new ArrayList<>())));
        assertEquals(List.of("unserved"), check(spec, V1_5_5, new ArrayList<>()).breaches().stream().map(CheckReport.Breach::kind).toList());
    }

    @Test
    void aParentResourceNamedByItsSingularIsNotTheDefinitionMetacontrollerGets() {
        ControllerSpec spec = composite("example.com/v1", "widget", false).withDefinitions(List.of(widgets("")));
        assertEquals(List.of("unserved sync Widget default/w create 0: Metacontroller v4.17.2 cannot start the CompositeController"
                + " widget-controller: its parentResource example.com/v1 widget is not served: the CustomResourceDefinition"
                + " widgets.example.com names its resource widgets, and discovery finds a resource by that plural alone. From v3.0.0"
                + " on, Metacontroller reads the parent's CustomResourceDefinition, widget.example.com, which is not there: it logs the"
                + " error (customresourcedefinitions.apiextensions.k8s.io \"widget.example.com\" not found) and retries with backoff,"
                + " recording no event, so no hook is called for any parent and nothing was checked. To fix: give the"
                + " CustomResourceDefinition that defines it with the controller, or fix parentResource's apiVersion or resource (the"
                + " plural)"), described(check(spec, NEWEST, new ArrayList<>())));
    }

    @Test
    void aBuiltInParentStartsBeforeV300Only() {
        ControllerSpec spec = composite("apps/v1", "deployments", false);
        assertEquals(List.of(new Breach("unserved", "Metacontroller v4.17.2 cannot start the CompositeController widget-controller: its"
                + " parentResource apps/v1 deployments is a built-in resource, not a custom one. From v3.0.0 on, Metacontroller reads the"
                + " parent's CustomResourceDefinition, deployments.apps, which is not there: it logs the error"
                + " (customresourcedefinitions.apiextensions.k8s.io \"deployments.apps\" not found) and retries with backoff, recording"
                + " no event, so no hook is called for any parent and nothing was checked. To fix: a CompositeController's parent is a"
                + " custom resource from v3.0.0 on (older releases look it up in discovery alone): decorate a built-in resource with a"
                + " DecoratorController instead")), ControllerStart.failures(spec, MetacontrollerVersion.NEWEST));
        assertEquals(1, ControllerStart.failures(spec, MetacontrollerVersion.parse("v3.0.0")).size());
        assertEquals(List.of(), ControllerStart.failures(spec, MetacontrollerVersion.parse("v2.6.1")));
        assertEquals(List.of(), ControllerStart.failures(spec, MetacontrollerVersion.OLDEST));
    }

    /** No definition of the parent's group given: the check cannot know, assumes the cluster has it, and calls the hook. */
    @Test
    void aParentWhoseDefinitionIsNotGivenIsAssumedServedOnEveryRelease() {
        for (ControllerSpec spec : List.of(composite("example.com/v1", "widgets", false),
                composite("example.com/v1", "widgets", false).withDefinitions(List.of(GIZMOS_V2)))) {
            for (Versions versions : List.of(NEWEST, V2, new Versions(KubernetesVersion.NEWEST, MetacontrollerVersion.OLDEST))) {
                List<String> called = new ArrayList<>();
                CheckReport report = check(spec, versions, called);
                assertTrue(report.clean(), report::toString);
                assertTrue(called.contains("sync"), versions::toString);
            }
        }
    }

    @Test
    void aDecoratorResourceNotServedKeepsTheDecoratorFromStarting() {
        ControllerSpec spec = ControllerSpec.read(json("{'apiVersion':'metacontroller.k8s.io/v1alpha1','kind':'DecoratorController',"
                + "'metadata':{'name':'service-per-pod'},'spec':{'resources':[{'apiVersion':'apps/v1','resource':'statefulset'},"
                + "{'apiVersion':'example.com/v1','resource':'widgets'}],'attachments':[{'apiVersion':'v1','resource':'services'}],"
                + "'hooks':{'sync':{'webhook':{'url':'http://hooks/sync'}}}}}"));
        JsonNode target = json("{'apiVersion':'apps/v1','kind':'StatefulSet','metadata':{'name':'web','namespace':'default'},"
                + "'spec':{'replicas':1}}");
        List<String> called = new ArrayList<>();
        CheckReport report = new Checker(spec, hook("[]", called), TestServer.CLOCK, 5).check(target, null);
        assertEquals(List.of("unserved sync StatefulSet default/web create 0: Metacontroller v4.17.2 cannot start the DecoratorController"
                + " service-per-pod: its resource apps/v1 statefulset is not served: Kubernetes serves no resource statefulset in apps/v1"
                + " (a resource is named by its plural in lower case: statefulsets). Metacontroller's discovery does not find it: it"
                + " records a CreateError event on the controller (Cannot create new controller: can't find resource \"statefulset\" in"
                + " apiVersion \"apps/v1\") and retries with backoff, so no hook is called for any parent and nothing was checked. To"
                + " fix: give the CustomResourceDefinition that defines it with the controller, or fix the resource's apiVersion or"
                + " resource (the plural)"), described(report));
        assertEquals(List.of(), called);
    }

    @Test
    void aRelatedResourceNotServedFailsEverySyncBeforeTheSyncHook() {
        List<String> called = new ArrayList<>();
        Simulation simulation = new Simulation(composite("example.com/v1", "widgets", true),
                hook("[{'apiVersion':'v1','resource':'configmap','names':['settings']}]", called), TestServer.CLOCK);
        ChildId parent = simulation.create(WIDGET);
        Simulation.Run run = simulation.converge(parent, 5, true);
        assertTrue(run.passes().stream().allMatch(pass -> pass.outcome() == CompositeSimulator.Outcome.FAILED), run.passes()::toString);
        assertTrue(called.stream().allMatch("customize"::equals), called::toString);
        assertTrue(simulation.store().get(new ChildId("v1", "ConfigMap", "default", "w-data")).isEmpty(), "nothing is written");

        List<String> checked = new ArrayList<>();
        CheckReport report = new Checker(composite("example.com/v1", "widgets", true),
                hook("[{'apiVersion':'v1','resource':'configmap','names':['settings']}]", checked), TestServer.CLOCK, 5).check(WIDGET, null);
        assertEquals(List.of("unserved customize Widget default/w create 1: customize asked for related v1 configmap, which is not"
                + " served: Kubernetes serves no resource configmap in v1 (a resource is named by its plural in lower case: configmaps)."
                + " Metacontroller's discovery does not find it (discovery: can't find resource configmap in apiVersion v1), so every"
                + " sync of the parent fails there, after customize and before the sync hook, and is retried with backoff (from v1.5.6"
                + " with a SyncError event on it: Sync error: discovery: can't find resource configmap in apiVersion v1): the sync hook"
                + " is never called, no child or status is written, on every release from v1.5.0 to v4.17.2. To fix: give the"
                + " CustomResourceDefinition that defines it with the controller, or fix the rule's apiVersion or resource (the"
                + " plural)"), described(report));
        assertTrue(checked.stream().allMatch("customize"::equals), checked::toString);
    }

    @Test
    void aDecoratorsRelatedResourceNotServedIsTheTargetsBreach() {
        ControllerSpec spec = ControllerSpec.read(json("{'apiVersion':'metacontroller.k8s.io/v1alpha1','kind':'DecoratorController',"
                + "'metadata':{'name':'service-per-pod'},'spec':{'resources':[{'apiVersion':'apps/v1','resource':'statefulsets'}],"
                + "'attachments':[{'apiVersion':'v1','resource':'services'}],'hooks':{'sync':{'webhook':{'url':'http://hooks/sync'}},"
                + "'customize':{'webhook':{'url':'http://hooks/customize'}}}}}"));
        JsonNode target = json("{'apiVersion':'apps/v1','kind':'StatefulSet','metadata':{'name':'web','namespace':'default'},"
                + "'spec':{'replicas':1}}");
        List<String> called = new ArrayList<>();
        CheckReport report = new Checker(spec, hook("[{'apiVersion':'v1','resource':'service'}]", called), TestServer.CLOCK, 5)
                .check(target, null);
        assertEquals(List.of("unserved customize StatefulSet default/web create"), report.breaches().stream()
                .map(breach -> breach.kind() + " " + breach.hook() + " " + breach.object() + " " + breach.phase()).toList(), report::toString);
        assertTrue(report.breaches().get(0).message().contains("so every sync of the target fails there"), report::toString);
        assertTrue(called.stream().allMatch("customize"::equals), called::toString);
    }

    @Test
    void aRelatedResourceIsJudgedByTheDefinitionOfItsGroupAndAssumedServedWithoutOne() {
        String rules = "[{'apiVersion':'example.com/v1','resource':'gizmos'}]";
        List<String> called = new ArrayList<>();
        CheckReport assumed = new Checker(composite("example.com/v1", "widgets", true), hook(rules, called), TestServer.CLOCK, 5)
                .check(WIDGET, null);
        assertTrue(assumed.clean(), assumed::toString);
        assertTrue(called.contains("sync"), called::toString);

        CheckReport judged = new Checker(composite("example.com/v1", "widgets", true).withDefinitions(List.of(GIZMOS_V2)),
                hook(rules, new ArrayList<>()), TestServer.CLOCK, 5).check(WIDGET, null);
        assertEquals(List.of("unserved"), judged.breaches().stream().map(CheckReport.Breach::kind).toList(), judged::toString);
        assertTrue(judged.breaches().get(0).message().startsWith("customize asked for related example.com/v1 gizmos, which is not served:"
                + " the CustomResourceDefinition gizmos.example.com serves v2, and does not list v1."), judged.breaches().get(0).message());
        assertTrue(judged.breaches().get(0).message().endsWith("To fix: serve v1 in the CustomResourceDefinition gizmos.example.com, or"
                + " name a version it serves"), judged.breaches().get(0).message());
    }

    /** Kinds of the built-in groups served from a later minor than 1.29 count as served: check never calls them unserved. */
    @Test
    void everyBuiltInResourceOfAnyMinorChecksIsServed() {
        Discovery discovery = Discovery.of(List.of());
        for (String resource : List.of("networking.k8s.io/v1 servicecidrs", "networking.k8s.io/v1 ipaddresses",
                "storage.k8s.io/v1 volumeattributesclasses", "admissionregistration.k8s.io/v1 validatingadmissionpolicies",
                "resource.k8s.io/v1 resourceclaims", "v1 configmaps", "apps/v1 statefulsets")) {
            String[] parts = resource.split(" ");
            assertTrue(discovery.servesResource(parts[0], parts[1]), resource);
        }
        assertTrue(discovery.mayServe("apps/v1beta1", "deployments"), "a built-in group's version not listed is assumed served");
        assertTrue(!discovery.mayServe("apps/v1", "deployment"), "a listed built-in version serves its plurals alone");
    }
}
