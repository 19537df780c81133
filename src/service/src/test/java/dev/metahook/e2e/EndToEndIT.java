package dev.metahook.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.metahook.internal.sim.ObjectRef;
import dev.metahook.internal.wire.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * metahook's controllers against a real API server: on the local rig (control plane from
 * src/e2e/control-plane, the simulator as Metacontroller, the test as the workloads), or, with
 * {@code METAHOOK_E2E_KUBECONFIG} set, on a cluster with the real Metacontroller and real workloads.
 * The same steps and checks either way. The rig's API server must store what a real one stores:
 * {@code ""} is a string, in a custom resource's spec and status and in Metacontroller's own
 * ControllerRevisions.
 */
class EndToEndIT {
    private static Rig rig;

    @BeforeAll
    static void start() throws Exception {
        rig = Rig.fromEnvironment();
    }

    @AfterAll
    static void stop() throws Exception {
        if (rig != null) {
            rig.close();
        }
    }

    private static ObjectNode current(ObjectRef ref) {
        return rig.get(ref).orElseThrow(() -> new AssertionError(ref + " does not exist"));
    }

    private static String reasons(ObjectRef parent) {
        StringBuilder out = new StringBuilder();
        current(parent).at("/status/conditions").forEach(c -> out.append(out.length() == 0 ? "" : " ")
                .append(c.get("type").asText()).append('=').append(c.get("status").asText()).append('/').append(c.get("reason").asText()));
        return out.toString();
    }

    /** The status answers the parent's latest spec: every condition observed this generation. */
    private static boolean current(ObjectRef parent, String reasons) {
        ObjectNode object = current(parent);
        long generation = object.at("/metadata/generation").asLong();
        for (JsonNode condition : object.at("/status/conditions")) {
            if (condition.path("observedGeneration").asLong() != generation) {
                return false;
            }
        }
        return reasons(parent).equals(reasons);
    }

    private static ObjectNode json(String text) {
        return (ObjectNode) Json.parse(text.getBytes(StandardCharsets.UTF_8));
    }

    private static Optional<ObjectNode> child(ObjectRef parent, String apiVersion, String kind, String name) {
        return rig.get(new ObjectRef(apiVersion, kind, parent.namespace(), name));
    }

    @Test
    void webAppGoesFromCreatingToAvailableRollsAndGoesAwayWithItsChildren() throws Exception {
        ObjectRef parent = rig.create(rig.example("webapp.yaml"));
        rig.await("webapp", parent, false, "children created", () -> child(parent, "apps/v1", "Deployment", "hello").isPresent()
                && child(parent, "v1", "Service", "hello").isPresent() && current(parent).at("/status/conditions").size() == 3);
        ObjectNode deployment = child(parent, "apps/v1", "Deployment", "hello").orElseThrow();
        assertEquals("WebApp", deployment.at("/metadata/ownerReferences/0/kind").asText());
        assertTrue(deployment.at("/metadata/ownerReferences/0/controller").asBoolean());
        assertTrue(child(parent, "v1", "Service", "hello").orElseThrow().at("/spec/clusterIP").isTextual(), "the API server defaulted the Service");

        rig.await("webapp", parent, true, "Available", () -> current(parent, "Ready=True/Available Reconciling=False/Available Stalled=False/Available"));
        List<String> phases = rig.seen(parent, "/status/conditions/0/reason");
        assertEquals("Creating", phases.get(0), "first seen as " + phases);
        assertEquals("Available", phases.get(phases.size() - 1));

        ObjectNode edited = rig.example("webapp.yaml");
        edited.withObjectProperty("spec").withArray("env").removeAll().addObject().put("name", "GREETING").put("value", "hello");
        rig.edit(edited);
        rig.await("webapp", parent, true, "the new pod template rolled out", () ->
                child(parent, "apps/v1", "Deployment", "hello").orElseThrow().at("/spec/template/spec/containers/0/env/0/value").asText().equals("hello")
                        && current(parent, "Ready=True/Available Reconciling=False/Available Stalled=False/Available"));

        assertNotEquals(0, rig.kubectl("-n", parent.namespace(), "patch", "webapp", "hello", "--type=merge", "-p", "{\"spec\":{\"port\":70000}}"),
                "the CRD schema refuses an invalid port");

        String uid = current(parent).at("/metadata/uid").asText();
        assertEquals(2, rig.ownedBy(uid).size());
        rig.delete(parent);
        rig.await("webapp", parent, true, "the WebApp and its children gone", () -> rig.get(parent).isEmpty() && rig.ownedBy(uid).isEmpty());
    }

    @Test
    void databaseIsProvisionedStallsOnABadEditAndIsTornDownStepByStep() throws Exception {
        ObjectRef parent = rig.create(rig.example("database.yaml"));
        rig.await("database", parent, false, "Provisioning", () -> current(parent).at("/status/phase").asText().equals("Provisioning")
                || current(parent).at("/status/phase").asText().equals("Ready"));
        rig.await("database", parent, true, "Ready", () -> current(parent).at("/status/phase").asText().equals("Ready"));
        List<String> phases = rig.seen(parent, "/status/phase");
        assertEquals(List.of("Provisioning", "Ready"), phases.subList(phases.indexOf("Provisioning"), phases.size()));
        long generation = child(parent, "apps/v1", "StatefulSet", "orders").orElseThrow().at("/metadata/generation").asLong();

        ObjectNode edited = rig.example("database.yaml");
        edited.withObjectProperty("spec").put("storage", "2Gi");
        rig.edit(edited);
        rig.await("database", parent, true, "Failed", () -> current(parent).at("/status/phase").asText().equals("Failed"));
        assertEquals(generation, child(parent, "apps/v1", "StatefulSet", "orders").orElseThrow().at("/metadata/generation").asLong(),
                "a spec the controller refuses touches no child");

        String uid = current(parent).at("/metadata/uid").asText();
        rig.delete(parent);
        rig.await("database", parent, false, "drained", () -> child(parent, "apps/v1", "StatefulSet", "orders")
                .map(statefulSet -> statefulSet.at("/spec/replicas").intValue() == 0).orElse(false));
        rig.await("database", parent, true, "backed up, finalized, gone with its children",
                () -> rig.get(parent).isEmpty() && rig.ownedBy(uid).isEmpty());
        rig.childUpdates(parent, "finalize").ifPresent(updates -> assertEquals(
                List.of(new ObjectRef("apps/v1", "StatefulSet", parent.namespace(), "orders").toString()), updates,
                "the whole teardown updates one child once (the StatefulSet to 0 replicas); no waiting step sends an update"));
        List<String> steps = rig.seen(parent, "/status/conditions/1/reason");
        assertEquals(List.of("Draining", "BackingUp"), steps.subList(steps.indexOf("Draining"), steps.indexOf("BackingUp") + 1),
                "the teardown steps as seen: " + steps);
    }

    @Test
    void aCustomResourceKeepsEmptyStringsInItsSpecAndItsStatus() throws Exception {
        String crd = "crd/greetings.e2e.metahook.dev";
        rig.commands().run(Duration.ofMinutes(1), "kubectl", "apply", "-f", "src/e2e/crds/greetings.yaml");
        rig.commands().run(Duration.ofMinutes(1), "kubectl", "wait", "--for=condition=established", "--timeout=60s", crd);
        try {
            ObjectNode greeting = json("""
                    {"apiVersion": "e2e.metahook.dev/v1", "kind": "Greeting", "metadata": {"name": "quiet"},
                     "spec": {"message": "", "words": ["", "hello", ""]}}""");
            greeting.withObjectProperty("metadata").put("namespace", rig.namespace());
            ObjectRef ref = rig.create(greeting);
            assertEquals(greeting.get("spec"), current(ref).get("spec"), "the spec as written, \"\" included");

            ObjectNode status = json("""
                    {"message": "", "conditions": [{"type": "Ready", "status": "True", "reason": "Greeted", "message": ""}]}""");
            rig.cluster().setStatus(ref, status);
            ObjectNode stored = current(ref);
            assertEquals(status, stored.get("status"), "the status as written, \"\" included");
            assertEquals(TextNode.valueOf(""), stored.at("/status/message"));
            assertEquals(greeting.get("spec"), stored.get("spec"), "a status write leaves the spec");
            rig.delete(ref);
        } finally {
            rig.commands().run(Duration.ofMinutes(1), "kubectl", "delete", crd, "--ignore-not-found");
        }
    }

    /**
     * The conditions metahook writes on a terminal error and Metacontroller's Updated condition survive the generated
     * CRDs of a real API server (issue 37, D3); under a CRD without status.conditions the API server drops them, and
     * the simulator's pruning keeps exactly what the API server kept.
     */
    @Test
    void aStalledParentAndARollingParentKeepTheirConditionsThroughTheGeneratedCrds(@TempDir Path work) throws Exception {
        Path widgets = Files.writeString(work.resolve("widgets.yaml"),
                dev.metahook.manifests.Manifests.crdFile(dev.metahook.internal.sim.ParentPruningTest.Widget.class, true));
        rig.commands().run(Duration.ofMinutes(1), "kubectl", "apply", "-f", "examples/catset/crd.yaml", "-f", widgets.toString());
        rig.commands().run(Duration.ofMinutes(1), "kubectl", "wait", "--for=condition=established", "--timeout=60s",
                "crd/catsets.ctl.enisoc.com", "crd/widgets.example.com");
        try {
            ObjectNode catSet = (ObjectNode) dev.metahook.testing.StoredObjects.manifest("examples/catset/my-catset.yaml");
            catSet.withObjectProperty("metadata").put("namespace", rig.namespace());
            ObjectRef rolling = rig.create(catSet);
            ObjectNode updated = json("""
                    {"observedGeneration": 1, "replicas": 3, "readyReplicas": 2, "conditions": [{"type": "Updated",
                     "status": "False", "reason": "RolloutProgressing", "message": "updating Pod nginx-backend-1"}]}""");
            rig.cluster().setStatus(rolling, updated);
            assertEquals(updated, current(rolling).get("status"), "Metacontroller's Updated condition, word for word");

            ObjectNode widget = json("""
                    {"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"}, "spec": {}}""");
            widget.withObjectProperty("metadata").put("namespace", rig.namespace());
            ObjectRef stalled = rig.create(widget);
            ObjectNode stall = json("""
                    {"observedGeneration": 1, "conditions": [
                     {"type": "Ready", "status": "False", "reason": "InvalidSpec", "message": "spec.size: is required",
                      "lastTransitionTime": "2026-12-06T03:00:00Z", "observedGeneration": 1},
                     {"type": "Reconciling", "status": "False", "reason": "InvalidSpec", "message": "spec.size: is required",
                      "lastTransitionTime": "2026-12-06T03:00:00Z", "observedGeneration": 1},
                     {"type": "Stalled", "status": "True", "reason": "InvalidSpec", "message": "spec.size: is required",
                      "lastTransitionTime": "2026-12-06T03:00:00Z", "observedGeneration": 1}]}""");
            rig.cluster().setStatus(stalled, stall);
            assertEquals(stall, current(stalled).get("status"), "metahook's stall, word for word");

            ObjectNode crd = (ObjectNode) new com.fasterxml.jackson.dataformat.yaml.YAMLMapper().readTree(widgets.toFile());
            ObjectNode statusSchema = (ObjectNode) crd.at("/spec/versions/0/schema/openAPIV3Schema/properties/status");
            ((ObjectNode) statusSchema.get("properties")).remove("conditions");
            Path without = Files.writeString(work.resolve("widgets-without-conditions.json"), crd.toString());
            rig.commands().run(Duration.ofMinutes(1), "kubectl", "apply", "-f", without.toString());
            ObjectNode kept = stall.deepCopy();
            assertEquals(List.of("status.conditions"), dev.metahook.internal.sim.SchemaPruning.prune(statusSchema, kept, "status"));
            for (int attempt = 0; attempt < 40; attempt++) { // the API server takes up a changed CRD schema moments after the apply
                rig.cluster().setStatus(stalled, stall.put("observedGeneration", 2 + attempt % 2));
                kept.put("observedGeneration", 2 + attempt % 2);
                if (current(stalled).get("status").equals(kept)) {
                    break;
                }
                Thread.sleep(250);
            }
            assertEquals(kept, current(stalled).get("status"), "the API server pruned what the simulator prunes");
            rig.delete(stalled);
            rig.delete(rolling);
        } finally {
            rig.commands().run(Duration.ofMinutes(1), "kubectl", "delete", "crd/catsets.ctl.enisoc.com", "crd/widgets.example.com",
                    "--ignore-not-found");
        }
    }

    /** Unlabelled and unowned, so that no controller on a cluster takes it for one of its parent's revisions. */
    @Test
    void aControllerRevisionOfACoreGroupChildIsStored() throws Exception {
        ObjectNode revision = json("""
                {"apiVersion": "metacontroller.k8s.io/v1alpha1", "kind": "ControllerRevision",
                 "metadata": {"name": "e2e-empty-api-group"},
                 "parentPatch": {},
                 "children": [{"apiGroup": "", "kind": "Service", "names": ["hello"]},
                              {"apiGroup": "apps", "kind": "Deployment", "names": ["hello"]}]}""");
        revision.withObjectProperty("metadata").put("namespace", rig.namespace());
        ObjectRef ref = rig.create(revision);
        ObjectNode stored = current(ref);
        assertEquals(revision.get("children"), stored.get("children"), "a core-group child is stored with apiGroup \"\"");
        assertEquals(TextNode.valueOf(""), stored.at("/children/0/apiGroup"));
        rig.delete(ref);
    }

    @Test
    void aWebAppWithAnEmptyEnvValueIsStoredAndRollsOutWithIt() throws Exception {
        ObjectNode manifest = rig.example("webapp.yaml");
        manifest.withObjectProperty("metadata").put("name", "quiet");
        manifest.withObjectProperty("spec").withArray("env").removeAll().addObject().put("name", "GREETING").put("value", "");
        ObjectRef parent = rig.create(manifest);
        assertEquals(TextNode.valueOf(""), current(parent).at("/spec/env/0/value"), "the WebApp as written");

        rig.await("webapp", parent, true, "Available", () -> current(parent, "Ready=True/Available Reconciling=False/Available Stalled=False/Available"));
        JsonNode env = child(parent, "apps/v1", "Deployment", "quiet").orElseThrow().at("/spec/template/spec/containers/0/env");
        assertEquals(1, env.size(), env.toString());
        assertEquals("GREETING", env.at("/0/name").asText());
        assertEquals("", env.at("/0/value").asText(""), "an empty value, which a Deployment stores by leaving it out");

        String uid = current(parent).at("/metadata/uid").asText();
        rig.delete(parent);
        rig.await("webapp", parent, true, "the WebApp and its children gone", () -> rig.get(parent).isEmpty() && rig.ownedBy(uid).isEmpty());
    }

    /**
     * Issue 26's path from an empty folder: the init command, the project's manifests step, and its
     * kustomize output applied to this API server, which stores the Greeting CRD (established), the
     * CompositeController as written (no field pruned), and the hook service's objects; then the
     * project's own greeting.yaml is accepted and read back. Only the objects whose API version the
     * server does not serve are left out, and those may only be the two README says need Kubernetes
     * 1.23 (the rig's v1.20.2 serves neither).
     */
    @Test
    void theInitProjectsManifestsApplyAndItsGreetingIsStored(@TempDir Path work) throws Exception {
        String image = "greeting-controller:e2e";
        GreetingProject project = GreetingProject.init(work, rig.commands());
        Path deploy = project.manifests(image);
        List<ObjectNode> rendered = GreetingProject.documents(
                rig.commands().output(Duration.ofMinutes(1), "kubectl", "kustomize", deploy.toString()));
        assertEquals(List.of("Namespace", "CustomResourceDefinition", "ServiceAccount", "Service", "Deployment", "PodDisruptionBudget",
                        "HorizontalPodAutoscaler", "CompositeController", "NetworkPolicy"),
                rendered.stream().map(object -> object.path("kind").asText()).toList(), "what the kustomize directory renders");
        Set<String> served = Set.of(rig.commands().output(Duration.ofMinutes(1), "kubectl", "api-versions").split("\\s+"));
        List<ObjectNode> applied = new ArrayList<>();
        List<String> unserved = new ArrayList<>();
        for (ObjectNode object : rendered) {
            if (served.contains(object.path("apiVersion").asText())) {
                applied.add(object);
            } else {
                unserved.add(object.path("apiVersion").asText() + " " + object.path("kind").asText());
            }
        }
        assertTrue(Set.of("policy/v1 PodDisruptionBudget", "autoscaling/v2 HorizontalPodAutoscaler").containsAll(unserved),
                "only what needs Kubernetes 1.23 may be unserved here: " + unserved);
        assertEquals(Set.of("Namespace", "CustomResourceDefinition", "ServiceAccount", "Service", "Deployment", "CompositeController",
                        "NetworkPolicy"),
                Set.copyOf(applied.stream().map(object -> object.path("kind").asText()).filter(kind -> !kind.equals("PodDisruptionBudget")
                        && !kind.equals("HorizontalPodAutoscaler")).toList()),
                "the rendered objects the server serves");

        ObjectNode list = json("{\"apiVersion\": \"v1\", \"kind\": \"List\"}");
        list.putArray("items").addAll(applied);
        Path file = Files.writeString(work.resolve("applied.json"), list.toPrettyString());
        ObjectNode greeting = project.greeting();
        greeting.withObjectProperty("metadata").put("namespace", rig.namespace());
        Path greetingFile = Files.writeString(work.resolve("greeting.json"), greeting.toPrettyString());
        try {
            // README's steps before `kubectl apply -k deploy/`: the namespace, and the Secret with the hook token.
            rig.commands().run(Duration.ofMinutes(1), "kubectl", "create", "namespace", "greeting-system");
            rig.commands().run(Duration.ofMinutes(1), "kubectl", "-n", "greeting-system", "create", "secret", "generic", "greeting-hook-token",
                    "--from-literal=token=" + UUID.randomUUID());
            rig.commands().run(Duration.ofMinutes(2), "kubectl", "apply", "-f", file.toString());
            rig.commands().run(Duration.ofMinutes(1), "kubectl", "wait", "--for=condition=established", "--timeout=60s",
                    "crd/greetings.example.com");
            JsonNode stored = json(rig.commands().output(Duration.ofMinutes(1), "kubectl", "get", "-f", file.toString(), "-o", "json")).path("items");
            assertEquals(applied.size(), stored.size(), stored.toString());
            for (int i = 0; i < applied.size(); i++) {
                ObjectNode wanted = applied.get(i);
                JsonNode got = stored.get(i);
                String what = wanted.path("kind").asText() + " " + wanted.at("/metadata/name").asText();
                assertEquals(wanted.path("kind"), got.path("kind"), what);
                assertEquals(wanted.at("/metadata/name"), got.at("/metadata/name"), what);
                assertTrue(got.at("/metadata/uid").isTextual(), what + " is stored");
                switch (wanted.path("kind").asText()) {
                    case "CustomResourceDefinition" -> {
                        assertEquals("example.com", got.at("/spec/group").asText());
                        assertEquals("greetings", got.at("/spec/names/plural").asText());
                        assertEquals(wanted.at("/spec/versions"), got.at("/spec/versions"), "the Greeting schema as generated");
                    }
                    case "CompositeController" -> {
                        assertEquals(wanted.get("spec"), withoutDefaultHookVersions(got.get("spec")),
                                "the registration as generated: every field known to the CRD, none pruned");
                        JsonNode secret = got.at("/spec/endpointConfigs/0/authorization/secretRef");
                        assertEquals(0, rig.kubectl("-n", secret.path("namespace").asText(), "get", "secret", secret.path("name").asText()),
                                "the token Secret the controller names is the one README creates: " + secret);
                    }
                    case "Deployment" -> {
                        assertEquals(image, got.at("/spec/template/spec/containers/0/image").asText());
                        assertEquals(wanted.at("/spec/selector"), got.at("/spec/selector"));
                        assertEquals(wanted.at("/spec/template/spec/containers/0/env"), got.at("/spec/template/spec/containers/0/env"));
                    }
                    case "Service" -> assertEquals(wanted.at("/spec/ports/0/port"), got.at("/spec/ports/0/port"));
                    case "NetworkPolicy" -> {
                        assertEquals(wanted.at("/spec/podSelector"), got.at("/spec/podSelector"));
                        assertEquals(wanted.at("/spec/ingress"), got.at("/spec/ingress"));
                    }
                    default -> { }
                }
            }
            assertTrue(StreamSupport.stream(stored.spliterator(), false).filter(o -> o.path("kind").asText().equals("CustomResourceDefinition"))
                    .flatMap(crd -> StreamSupport.stream(crd.at("/status/conditions").spliterator(), false))
                    .anyMatch(c -> c.path("type").asText().equals("Established") && c.path("status").asText().equals("True")),
                    "the Greeting CRD is established");

            JsonNode created = json(rig.commands().output(Duration.ofMinutes(1), "kubectl", "create", "-f", greetingFile.toString(), "-o", "json"));
            JsonNode read = json(rig.commands().output(Duration.ofMinutes(1), "kubectl", "-n", rig.namespace(), "get",
                    "greetings.example.com", greeting.at("/metadata/name").asText(), "-o", "json"));
            assertEquals(greeting.get("spec"), read.get("spec"), "the project's greeting.yaml as written");
            assertEquals("hello", read.at("/spec/message").asText());
            assertEquals(created.at("/metadata/uid"), read.at("/metadata/uid"));
        } finally {
            rig.kubectl("delete", "-f", greetingFile.toString(), "--ignore-not-found", "--wait=false");
            rig.kubectl("-n", "greeting-system", "delete", "secret", "greeting-hook-token", "--ignore-not-found", "--wait=false");
            rig.kubectl("delete", "-f", file.toString(), "--ignore-not-found", "--wait=false");
        }
    }

    /** A stored controller's spec without the {@code version: v1} the CRD defaults into each hook. */
    private static JsonNode withoutDefaultHookVersions(JsonNode spec) {
        ObjectNode copy = spec.deepCopy();
        copy.path("hooks").forEach(hook -> {
            if (hook instanceof ObjectNode object && object.path("version").asText().equals("v1")) {
                object.remove("version");
            }
        });
        return copy;
    }
}
