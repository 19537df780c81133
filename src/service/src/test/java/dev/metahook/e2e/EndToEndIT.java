package dev.metahook.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.metahook.api.ChildId;
import dev.metahook.internal.sim.Ids;
import dev.metahook.internal.sim.KubernetesVersion;
import dev.metahook.internal.wire.Json;
import dev.metahook.testing.Helm;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * metahook's controllers against a real API server: on the local rig (control plane from
 * src/e2e/control-plane, the simulator as Metacontroller, the test as the workloads), or, with
 * {@code METAHOOK_E2E_KUBECONFIG} set, on a cluster with the real Metacontroller and real workloads.
 * The same steps and checks either way, on the local rig against each API server {@link Rigs} starts (the oldest
 * and the newest Kubernetes minor the simulator models). The rig's API server must store what a real one stores:
 * {@code ""} is a string, in a custom resource's spec and status and in Metacontroller's own
 * ControllerRevisions.
 */
@ParameterizedClass(name = "Kubernetes {0}")
@MethodSource("dev.metahook.e2e.Rigs#versions")
@ExtendWith(Rigs.Resolver.class)
class EndToEndIT {
    private static Rig rig;

    @Parameter
    KubernetesVersion version;

    /** The rig of this version, started for the first test that needs it, shared with the suite's other classes. */
    @BeforeEach
    void onTheRigOfThisVersion(Rigs rigs) throws Exception {
        rig = rigs.of(version);
    }

    private static ObjectNode current(ChildId ref) {
        return rig.get(ref).orElseThrow(() -> new AssertionError(Ids.text(ref) + " does not exist"));
    }

    private static String reasons(ChildId parent) {
        StringBuilder out = new StringBuilder();
        current(parent).at("/status/conditions").forEach(c -> out.append(out.length() == 0 ? "" : " ")
                .append(c.get("type").asText()).append('=').append(c.get("status").asText()).append('/').append(c.get("reason").asText()));
        return out.toString();
    }

    /** The status answers the parent's latest spec: every condition observed this generation. */
    private static boolean current(ChildId parent, String reasons) {
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

    private static Optional<ObjectNode> child(ChildId parent, String apiVersion, String kind, String name) {
        return rig.get(new ChildId(apiVersion, kind, parent.namespace(), name));
    }

    @Test
    void webAppGoesFromCreatingToAvailableRollsAndGoesAwayWithItsChildren() throws Exception {
        ChildId parent = rig.create(rig.example("webapp.yaml"));
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
        ChildId parent = rig.create(rig.example("database.yaml"));
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
        assertTrue(reasons(parent).contains("Stalled=True/"), "the stalled Database's conditions as stored: " + reasons(parent));
        assertEquals(generation, child(parent, "apps/v1", "StatefulSet", "orders").orElseThrow().at("/metadata/generation").asLong(),
                "a spec the controller refuses touches no child");

        String uid = current(parent).at("/metadata/uid").asText();
        rig.delete(parent);
        rig.await("database", parent, false, "drained", () -> child(parent, "apps/v1", "StatefulSet", "orders")
                .map(statefulSet -> statefulSet.at("/spec/replicas").intValue() == 0).orElse(false));
        rig.await("database", parent, true, "backed up, finalized, gone with its children",
                () -> rig.get(parent).isEmpty() && rig.ownedBy(uid).isEmpty());
        rig.childUpdates(parent, "finalize").ifPresent(updates -> assertEquals(
                List.of(Ids.text(new ChildId("apps/v1", "StatefulSet", parent.namespace(), "orders"))), updates,
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
            ChildId ref = rig.create(greeting);
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
            ChildId rolling = rig.create(catSet);
            ObjectNode updated = json("""
                    {"observedGeneration": 1, "replicas": 3, "readyReplicas": 2, "conditions": [{"type": "Updated",
                     "status": "False", "reason": "RolloutProgressing", "message": "updating Pod nginx-backend-1"}]}""");
            rig.cluster().setStatus(rolling, updated);
            assertEquals(updated, current(rolling).get("status"), "Metacontroller's Updated condition, word for word");

            ObjectNode widget = json("""
                    {"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"}, "spec": {}}""");
            widget.withObjectProperty("metadata").put("namespace", rig.namespace());
            ChildId stalled = rig.create(widget);
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
        ChildId ref = rig.create(revision);
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
        ChildId parent = rig.create(manifest);
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
     * kustomize output applied whole to this API server (the PodDisruptionBudget and the
     * HorizontalPodAutoscaler included), which stores every object as rendered (its own defaults aside):
     * the Greeting CRD established, the CompositeController accepted by Metacontroller's own schema with
     * no field pruned; then the project's own greeting.yaml is accepted and read back.
     */
    @Test
    void theInitProjectsManifestsApplyAndItsGreetingIsStored(@TempDir Path work) throws Exception {
        String image = "greeting-controller:e2e";
        GreetingProject project = GreetingProject.init(work, rig.commands());
        List<ObjectNode> rendered = kustomize(project.manifests(image));
        assertEquals(List.of("Namespace", "CustomResourceDefinition", "ServiceAccount", "Service", "Deployment", "PodDisruptionBudget",
                        "HorizontalPodAutoscaler", "CompositeController", "NetworkPolicy"), kinds(rendered), "what the kustomize directory renders");
        ObjectNode greeting = project.greeting();
        greeting.withObjectProperty("metadata").put("namespace", rig.namespace());
        Path greetingFile = Files.writeString(work.resolve("greeting.json"), greeting.toPrettyString());
        try {
            // README's steps before `kubectl apply -k deploy/`: the namespace, and the Secret with the hook token.
            rig.commands().run(Duration.ofMinutes(1), "kubectl", "create", "namespace", "greeting-system");
            rig.commands().run(Duration.ofMinutes(1), "kubectl", "-n", "greeting-system", "create", "secret", "generic", "greeting-hook-token",
                    "--from-literal=token=" + UUID.randomUUID());
            List<ObjectNode> stored = AppliedManifests.apply(rig.commands(), work, "greeting-deploy", rendered);
            ObjectNode crd = stored.get(0);
            assertEquals("greetings.example.com", crd.at("/metadata/name").asText());
            assertTrue(StreamSupport.stream(crd.at("/status/conditions").spliterator(), false)
                    .anyMatch(c -> c.path("type").asText().equals("Established") && c.path("status").asText().equals("True")),
                    "the Greeting CRD is established");
            JsonNode controller = stored.stream().filter(o -> o.path("kind").asText().equals("CompositeController")).findFirst().orElseThrow();
            JsonNode secret = controller.at("/spec/endpointConfigs/0/authorization/secretRef");
            assertEquals(0, rig.kubectl("-n", secret.path("namespace").asText(), "get", "secret", secret.path("name").asText()),
                    "the token Secret the controller names is the one README creates: " + secret);
            assertEquals(image, stored.stream().filter(o -> o.path("kind").asText().equals("Deployment")).findFirst().orElseThrow()
                    .at("/spec/template/spec/containers/0/image").asText());

            JsonNode created = json(rig.commands().output(Duration.ofMinutes(1), "kubectl", "create", "-f", greetingFile.toString(), "-o", "json"));
            JsonNode read = json(rig.commands().output(Duration.ofMinutes(1), "kubectl", "-n", rig.namespace(), "get",
                    "greetings.example.com", greeting.at("/metadata/name").asText(), "-o", "json"));
            assertEquals(greeting.get("spec"), read.get("spec"), "the project's greeting.yaml as written");
            assertEquals("hello", read.at("/spec/message").asText());
            assertEquals(created.at("/metadata/uid"), read.at("/metadata/uid"));
        } finally {
            rig.kubectl("delete", "-f", greetingFile.toString(), "--ignore-not-found", "--wait=false");
            rig.kubectl("-n", "greeting-system", "delete", "secret", "greeting-hook-token", "--ignore-not-found", "--wait=false");
            AppliedManifests.delete(rig.commands(), work, "greeting-deploy");
        }
    }

    /**
     * The whole kustomize output of {@code metacontroller/} (its PodDisruptionBudget and HorizontalPodAutoscaler
     * included) stored as rendered, its own defaults aside (on a cluster, where metahook is installed from it
     * already, as the server would store it: a dry run); with each component that needs only Kubernetes and
     * Metacontroller (tls, before-v4.16) in an overlay, as the server would store it. The service-monitor and
     * pod-monitor components need the Prometheus operator's CRDs, which this API server does not have.
     */
    @Test
    void metacontrollersDirectoryAndItsComponentsAreStoredAsRendered(@TempDir Path work) throws Exception {
        List<ObjectNode> rendered = kustomize(Path.of("metacontroller"));
        assertEquals(List.of("Namespace", "CustomResourceDefinition", "CustomResourceDefinition", "ServiceAccount", "Service", "Deployment",
                "PodDisruptionBudget", "HorizontalPodAutoscaler", "CompositeController", "CompositeController", "NetworkPolicy"), kinds(rendered));
        if (rig.local()) {
            AppliedManifests.apply(rig.commands(), work, "metacontroller", rendered);
        } else {
            AppliedManifests.dryRun(rig.commands(), work, "metacontroller", rendered);
        }
        for (String component : List.of("tls", "before-v4.16")) {
            Path overlay = Files.createDirectories(Path.of("target/e2e-overlays", component));
            Files.writeString(overlay.resolve("kustomization.yaml"), """
                    apiVersion: kustomize.config.k8s.io/v1beta1
                    kind: Kustomization
                    resources:
                    - ../../../metacontroller
                    components:
                    - ../../../metacontroller/components/%s
                    """.formatted(component));
            List<ObjectNode> overlaid = kustomize(overlay);
            assertNotEquals(rendered, overlaid, component + " changes what is rendered");
            AppliedManifests.dryRun(rig.commands(), work, component, overlaid);
        }
    }

    /**
     * Every ported example (examples/bluegreen, catset, configmappropagation, service-per-pod): its kustomize
     * directory (CRD and registration) and the objects beside it, applied and stored as written, the server's
     * defaults aside; and the WebApp and Database of examples/ (renamed, so that no other test meets them).
     */
    @Test
    void everyPortedExampleIsStoredAsWritten(@TempDir Path work) throws Exception {
        List<String> examples = List.of("bluegreen", "catset", "configmappropagation", "service-per-pod");
        try {
            for (String example : examples) {
                Path directory = Path.of("examples", example);
                List<ObjectNode> objects = new ArrayList<>(kustomize(directory));
                String kustomization = Files.readString(directory.resolve("kustomization.yaml"));
                try (Stream<Path> files = Files.list(directory)) {
                    for (Path file : files.filter(f -> f.toString().endsWith(".yaml") && !kustomization.contains("- " + f.getFileName() + "\n")
                            && !f.getFileName().toString().equals("kustomization.yaml")).sorted().toList()) {
                        objects.addAll(GreetingProject.documents(Files.readString(file)));
                    }
                }
                objects.forEach(EndToEndIT::inRigNamespace);
                // a namespace before the objects in it (related.yaml lists the ConfigMap first)
                objects.sort(Comparator.comparing(object -> !object.path("kind").asText().equals("Namespace")));
                AppliedManifests.apply(rig.commands(), work, example, objects);
            }
            if (rig.local()) {
                List<ObjectNode> parents = List.of(rig.example("webapp.yaml"), rig.example("database.yaml"));
                parents.forEach(parent -> parent.withObjectProperty("metadata").put("name", "applied-" + parent.at("/metadata/name").asText()));
                AppliedManifests.apply(rig.commands(), work, "parents", parents);
            }
        } finally {
            AppliedManifests.delete(rig.commands(), work, "parents");
            for (String example : examples) {
                AppliedManifests.delete(rig.commands(), work, example);
            }
        }
    }

    /**
     * Issue 34's "Metacontroller's schema": every CompositeController and DecoratorController metahook
     * generates (the reference controllers, the ported examples, the init project's, the Greeting
     * consumer's) accepted by the CRDs Metacontroller v4.17.2 installs (a cluster's own on a cluster),
     * with kubectl's strict field validation: an unknown field, a wrong type or a missing required field
     * is refused, and nothing is pruned. A field the schema does not know is refused, to show that it checks.
     */
    @Test
    void everyControllerMetahookGeneratesIsAcceptedByMetacontrollersOwnSchema(@TempDir Path work) throws Exception {
        List<ObjectNode> controllers = new ArrayList<>();
        for (String file : List.of("metacontroller/webapp-controller.yaml", "metacontroller/database-controller.yaml",
                "examples/bluegreen/controller.yaml", "examples/catset/controller.yaml", "examples/configmappropagation/controller.yaml",
                "examples/service-per-pod/controller.yaml", "examples/service-per-pod/pod-name-label-controller.yaml")) {
            controllers.addAll(GreetingProject.documents(Files.readString(Path.of(file))));
        }
        controllers.addAll(kustomize(GreetingProject.init(work, rig.commands()).manifests("greeting-controller:e2e")).stream()
                .filter(object -> object.path("kind").asText().endsWith("Controller")).toList());
        List<ObjectNode> consumer = kustomize(GreetingProject.consumer(work).manifests("greeting-controller:e2e")).stream()
                .filter(object -> object.path("kind").asText().endsWith("Controller")).toList();
        consumer.forEach(controller -> controller.withObjectProperty("metadata").put("name", "consumer-" + controller.at("/metadata/name").asText()));
        controllers.addAll(consumer);
        assertEquals(List.of("CompositeController", "CompositeController", "CompositeController", "CompositeController", "CompositeController",
                "DecoratorController", "DecoratorController", "CompositeController", "CompositeController"), kinds(controllers));
        AppliedManifests.dryRun(rig.commands(), work, "controllers", controllers);

        ObjectNode unknown = controllers.get(0).deepCopy();
        unknown.withObjectProperty("spec").withObjectProperty("hooks").withObjectProperty("sync").withObjectProperty("webhook").put("retries", 3);
        Path file = Files.writeString(work.resolve("unknown.json"), unknown.toPrettyString());
        assertNotEquals(0, rig.kubectl("apply", "--dry-run=server", "-f", file.toString()), "a field Metacontroller's schema does not name is refused");
    }

    /**
     * Issue 34's "what the API server does to a status", with the CRD metahook generates for the Greeting
     * consumer (src/it/consumer; moved to a group of its own, so that no controller anywhere watches it): a
     * stalled parent's conditions are stored whole ({@code ""} message included), a field of the wrong type
     * is refused and leaves the stored status as it was, a field the schema does not name is pruned, and
     * explicit empties ({@code ""}, {@code []}) round-trip.
     */
    @Test
    void aStatusIsStoredAsTheGeneratedCrdSays(@TempDir Path work) throws Exception {
        ObjectNode crd = kustomize(GreetingProject.consumer(work).manifests("greeting-controller:e2e")).stream()
                .filter(object -> object.path("kind").asText().equals("CustomResourceDefinition")).findFirst().orElseThrow();
        crd.withObjectProperty("spec").put("group", "status.e2e.metahook.dev");
        crd.withObjectProperty("metadata").put("name", crd.at("/spec/names/plural").asText() + ".status.e2e.metahook.dev");
        try {
            AppliedManifests.apply(rig.commands(), work, "status-crd", List.of(crd));
            ObjectNode greeting = json("""
                    {"apiVersion": "status.e2e.metahook.dev/v1", "kind": "Greeting", "metadata": {"name": "stalled"},
                     "spec": {"message": ""}}""");
            greeting.withObjectProperty("metadata").put("namespace", rig.namespace());
            ChildId ref = rig.create(greeting);
            ObjectNode stalled = json("""
                    {"observed": 1, "conditions": [
                      {"type": "Ready", "status": "False", "reason": "InvalidSpec", "message": "spec.message: must not be empty",
                       "lastTransitionTime": "2026-12-06T03:00:00Z", "observedGeneration": 1},
                      {"type": "Stalled", "status": "True", "reason": "InvalidSpec", "message": "",
                       "lastTransitionTime": "2026-12-06T03:00:00Z", "observedGeneration": 1}]}""");
            rig.cluster().setStatus(ref, stalled);
            assertEquals(stalled, current(ref).get("status"), "a stalled parent's conditions as written, none pruned");

            ObjectNode wrongType = stalled.deepCopy().put("observed", "one");
            KubernetesClientException refused = assertThrows(KubernetesClientException.class, () -> rig.cluster().setStatus(ref, wrongType));
            assertEquals(422, refused.getCode());
            // named from the object's root by 1.37 (status.observed), within the status by 1.29 (observed)
            assertTrue(refused.getMessage().contains("status.observed: Invalid value") || refused.getMessage().contains(" observed: Invalid value"),
                    refused.getMessage());
            assertEquals(stalled, current(ref).get("status"), "a refused status leaves the stored one");

            ObjectNode unknown = stalled.deepCopy().put("retries", 3);
            rig.cluster().setStatus(ref, unknown);
            assertEquals(stalled, current(ref).get("status"), "a field the schema does not name is pruned, without a word");

            ObjectNode empties = json("""
                    {"observed": 0, "conditions": []}""");
            rig.cluster().setStatus(ref, empties);
            assertEquals(empties, current(ref).get("status"), "explicit empties as written");
            assertEquals(TextNode.valueOf(""), current(ref).at("/spec/message"), "\"\" in the spec as written");
            rig.delete(ref);
        } finally {
            AppliedManifests.delete(rig.commands(), work, "status-crd");
        }
    }

    /**
     * Issue 34 item 2's Helm part: {@code helm template} of the built-in chart ({@code metacontroller/chart}, CRDs
     * included) with its default values, with every option that needs only Kubernetes and Metacontroller (TLS and
     * client certificates, the Namespace, other namespaces and pod labels for Metacontroller and the monitoring,
     * extra labels and annotations, the image by digest, the PodDisruptionBudget and HorizontalPodAutoscaler with
     * other numbers), and with the opt-outs (no autoscaling, budget, NetworkPolicy or token): each rendering applied
     * into a namespace of its own and stored as rendered, the server's defaults aside (on a cluster, where metahook
     * runs from {@code metacontroller/}, as the server would store it: a dry run). ServiceMonitor and PodMonitor
     * are left out: they need the Prometheus operator's CRDs, which this API server does not have.
     */
    @Test
    void theBuiltInChartIsStoredAsRenderedWithItsDefaultsWithEveryOptionAndWithout(@TempDir Path work) throws Exception {
        Path chart = Path.of("metacontroller/chart");
        Map<String, String> options = new LinkedHashMap<>();
        options.put("namespace.create", "true");
        options.put("tls.enabled", "true");
        options.put("tls.secretName", "hooks-tls");
        options.put("tls.clientAuth.enabled", "true");
        options.put("tls.clientAuth.secretName", "hooks-client-tls");
        options.put("hookToken.secretName", "hooks-token");
        options.put("metacontroller.namespace", "controllers");
        options.put("metacontroller.podLabels.app\\.kubernetes\\.io/name", "metacontroller");
        options.put("monitoring.namespace", "observability");
        options.put("monitoring.podLabels.app\\.kubernetes\\.io/name", "prometheus");
        options.put("labels.team", "payments");
        options.put("annotations.example\\.com/owner", "payments-team");
        options.put("podLabels.tier", "hooks");
        options.put("podAnnotations.example\\.com/scrape", "yes");
        options.put("image.repository", "registry.example.com/metahook");
        options.put("image.digest", "sha256:" + "0123456789abcdef".repeat(4));
        options.put("image.pullPolicy", "IfNotPresent");
        options.put("imagePullSecrets[0].name", "registry-credentials");
        options.put("autoscaling.minReplicas", "3");
        options.put("autoscaling.maxReplicas", "9");
        options.put("autoscaling.targetCPUUtilizationPercentage", "60");
        options.put("podDisruptionBudget.minAvailable", "2");
        Map<String, String> without = Map.of("autoscaling.enabled", "false", "replicas", "3", "podDisruptionBudget.enabled", "false",
                "networkPolicy.enabled", "false", "hookToken.enabled", "false");
        List<String> releases = List.of("metahook-helm", "metahook-helm-tls", "metahook-helm-plain");
        try {
            List<ObjectNode> defaults = chart(work, chart, releases.get(0), Map.of(), rig.local());
            assertEquals(List.of("CustomResourceDefinition", "CustomResourceDefinition", "NetworkPolicy", "PodDisruptionBudget", "ServiceAccount",
                    "Service", "Deployment", "HorizontalPodAutoscaler", "CompositeController", "CompositeController"), kinds(defaults));

            List<ObjectNode> optioned = chart(work, chart, releases.get(1), options, rig.local());
            assertEquals(List.of("CustomResourceDefinition", "CustomResourceDefinition", "Namespace", "NetworkPolicy", "PodDisruptionBudget",
                    "ServiceAccount", "Service", "Deployment", "HorizontalPodAutoscaler", "CompositeController", "CompositeController"), kinds(optioned));
            assertEquals("restricted", stored(optioned, "Namespace").at("/metadata/labels/pod-security.kubernetes.io~1enforce").asText());
            JsonNode webapp = named(optioned, "webapp-controller");
            assertEquals("https://metahook.metahook-helm-tls/webapp/sync", webapp.at("/spec/hooks/sync/webhook/url").asText());
            assertEquals("hooks-tls", webapp.at("/spec/endpointConfigs/0/caBundle/secretRef/name").asText(), webapp.toString());
            assertEquals("hooks-client-tls", webapp.at("/spec/endpointConfigs/0/clientTLS/secretRef/name").asText(), webapp.toString());
            assertEquals("payments", webapp.at("/metadata/labels/team").asText());
            JsonNode pod = stored(optioned, "Deployment").at("/spec/template");
            assertEquals("registry.example.com/metahook:0.1.0@sha256:" + "0123456789abcdef".repeat(4), pod.at("/spec/containers/0/image").asText());
            assertEquals("hooks", pod.at("/metadata/labels/tier").asText());
            assertEquals(List.of("controllers", "observability"), stored(optioned, "NetworkPolicy").at("/spec/ingress").findValuesAsText(
                    "kubernetes.io/metadata.name"));
            assertEquals(2, stored(optioned, "PodDisruptionBudget").at("/spec/minAvailable").intValue());
            assertEquals(9, stored(optioned, "HorizontalPodAutoscaler").at("/spec/maxReplicas").intValue());

            List<ObjectNode> plain = chart(work, chart, releases.get(2), without, rig.local());
            assertEquals(List.of("CustomResourceDefinition", "CustomResourceDefinition", "ServiceAccount", "Service", "Deployment",
                    "CompositeController", "CompositeController"), kinds(plain));
            assertEquals(3, stored(plain, "Deployment").at("/spec/replicas").intValue());
            JsonNode bare = named(plain, "webapp-controller");
            assertTrue(bare.at("/spec/endpointConfigs").isMissingNode(), "no token, no TLS: no endpointConfigs " + bare);
        } finally {
            for (String release : releases) {
                if (rig.local()) {
                    AppliedManifests.deleteObjects(rig.commands(), work, release);
                }
                rig.kubectl("delete", "namespace", release, "--ignore-not-found", "--wait=false");
            }
        }
    }

    /**
     * The chart the init project's manifests step writes beside its kustomize directory ({@code target/deploy/chart}):
     * {@code helm template} with its default values and with TLS, client certificates, its Namespace and extra
     * labels, each applied whole (the Greeting CRD from {@code crds/} first) into a namespace of its own and stored
     * as rendered, the server's defaults aside.
     */
    @Test
    void theInitProjectsChartIsStoredAsRendered(@TempDir Path work) throws Exception {
        String image = "greeting-controller:e2e";
        Path chart = GreetingProject.init(work, rig.commands()).manifests(image).resolve("chart");
        Map<String, String> options = Map.of("namespace.create", "true", "tls.enabled", "true", "tls.clientAuth.enabled", "true",
                "labels.team", "greetings", "annotations.example\\.com/owner", "greetings-team");
        List<String> releases = List.of("greeting-helm", "greeting-helm-tls");
        String crd = "greetings.example.com";
        // the init project's kustomize test deletes the same CRD without waiting
        Commands.waitFor(Duration.ofSeconds(60), "the Greeting CRD of another test gone", () -> rig.commands()
                .output(Duration.ofMinutes(1), "kubectl", "get", "crd", crd, "--ignore-not-found", "-o", "name").isBlank());
        try {
            List<ObjectNode> defaults = chart(work, chart, releases.get(0), Map.of(), true);
            assertEquals(List.of("CustomResourceDefinition", "NetworkPolicy", "PodDisruptionBudget", "ServiceAccount", "Service", "Deployment",
                    "HorizontalPodAutoscaler", "CompositeController"), kinds(defaults));
            assertEquals(crd, defaults.get(0).at("/metadata/name").asText());
            assertEquals(image, stored(defaults, "Deployment").at("/spec/template/spec/containers/0/image").asText());

            List<ObjectNode> optioned = chart(work, chart, releases.get(1), options, true);
            assertEquals(List.of("CustomResourceDefinition", "Namespace", "NetworkPolicy", "PodDisruptionBudget", "ServiceAccount", "Service",
                    "Deployment", "HorizontalPodAutoscaler", "CompositeController"), kinds(optioned));
            JsonNode controller = stored(optioned, "CompositeController");
            assertTrue(controller.at("/spec/hooks/sync/webhook/url").asText().startsWith("https://greeting.greeting-helm-tls/"), controller.toString());
            assertEquals("greeting-client-tls", controller.at("/spec/endpointConfigs/0/clientTLS/secretRef/name").asText(), controller.toString());
            assertEquals("greetings", stored(optioned, "Deployment").at("/metadata/labels/team").asText());
        } finally {
            for (String release : releases) {
                AppliedManifests.delete(rig.commands(), work, release);
                rig.kubectl("delete", "namespace", release, "--ignore-not-found", "--wait=false");
            }
            // waited for, so that the init project's kustomize test, if it comes next, does not meet it terminating
            rig.kubectl("delete", "crd", crd, "--ignore-not-found", "--timeout=60s");
        }
    }

    /**
     * {@code helm template} of the chart into the release namespace (created first, unless the chart's own Namespace
     * is applied: a dry run needs it there), applied ({@code apply}) or run dry, and checked stored as rendered; what
     * the server stores, in the rendered order.
     */
    private static List<ObjectNode> chart(Path work, Path chart, String namespace, Map<String, String> values, boolean apply) throws Exception {
        List<ObjectNode> rendered = GreetingProject.documents(Helm.template(chart, namespace, values)).stream().filter(Objects::nonNull).toList();
        if (!apply || rendered.stream().noneMatch(object -> object.path("kind").asText().equals("Namespace"))) {
            rig.commands().run(Duration.ofMinutes(1), "kubectl", "create", "namespace", namespace);
        }
        return apply ? AppliedManifests.apply(rig.commands(), work, namespace, rendered)
                : AppliedManifests.dryRun(rig.commands(), work, namespace, rendered);
    }

    private static JsonNode named(List<ObjectNode> objects, String name) {
        return objects.stream().filter(object -> object.at("/metadata/name").asText().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + name + " among " + kinds(objects)));
    }

    /** The one stored object of this kind. */
    private static JsonNode stored(List<ObjectNode> objects, String kind) {
        List<ObjectNode> found = objects.stream().filter(object -> object.path("kind").asText().equals(kind)).toList();
        assertEquals(1, found.size(), kind + " in " + kinds(objects));
        return found.get(0);
    }

    private static List<ObjectNode> kustomize(Path directory) throws Exception {
        return GreetingProject.documents(rig.commands().output(Duration.ofMinutes(1), "kubectl", "kustomize", directory.toString()));
    }

    private static List<String> kinds(List<ObjectNode> objects) {
        return objects.stream().map(object -> object.path("kind").asText()).toList();
    }

    /** An example written for the namespace default goes into the rig's. */
    private static void inRigNamespace(ObjectNode object) {
        if (object.at("/metadata/namespace").asText().equals("default")) {
            object.withObjectProperty("metadata").put("namespace", rig.namespace());
        }
    }
}
