package dev.metahook.manifests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.metahook.api.Child;
import dev.metahook.api.ConditionSchema;
import dev.metahook.api.ConditionStatus;
import dev.metahook.api.Controllers;
import dev.metahook.api.CustomResource;
import dev.metahook.api.Declaration;
import dev.metahook.api.ListMapKeys;
import dev.metahook.api.Result;
import dev.metahook.api.Update;
import dev.metahook.api.Update.StatusCheck;
import dev.metahook.internal.wire.Json;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn.Type;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A user's registration, generated: what Metacontroller, kubectl and the API server would read. */
class ManifestsGenerationTest {
    private static final YAMLMapper YAML = new YAMLMapper();
    private static final ManifestOptions GREETING = ManifestOptions.service("greeting", "registry.example.com/team/greeting:1.0");

    /** A parent with the details a CRD must carry: bounds, defaults, keyed lists, a long, conditions, columns. */
    @Group("example.com")
    @Version("v1")
    @AdditionalPrinterColumn(name = "Size", jsonPath = ".spec.size", type = Type.INTEGER)
    @AdditionalPrinterColumn(name = "Ready", jsonPath = ".status.conditions[?(@.type==\"Ready\")].status", type = Type.STRING)
    @AdditionalPrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp", type = Type.DATE)
    public static class Shelf extends CustomResource<Shelf.Spec, Shelf.Status> implements Namespaced {
        public record Spec(@Required @Min(1) @Max(64) @Default("4") Integer size, @ListMapKeys({"row", "column"}) List<Slot> slots,
                           long capacityBytes) {
        }

        public record Slot(@Required Integer row, @Required Integer column, String label) {
        }

        public record Status(Long bytesUsed, @SchemaFrom(type = ConditionSchema[].class) List<Condition> conditions) {
        }
    }

    static Controllers shelves() {
        return Controllers.builder()
                .composite("shelf", Shelf.class, (shelf, context) -> Result.keepingObserved(), Declaration.children(
                        Child.of(StatefulSet.class, Update.rollingInPlace(StatusCheck.condition("Ready", ConditionStatus.TRUE))),
                        Child.of(ConfigMap.class, Update.ON_DELETE),
                        Child.of("example.com/v1", "widgets", Update.RECREATE)).resync(Duration.ofSeconds(90)).hookVersion("v2"))
                .decorator("budget", Deployment.class, (deployment, context) -> Result.keepingObserved(),
                        Declaration.attachments(Child.of(PodDisruptionBudget.class, Update.IN_PLACE))
                                .labelSelector(new LabelSelectorBuilder().addToMatchLabels("budget", "yes").build())
                                .annotationSelector(new LabelSelectorBuilder().addNewMatchExpression().withKey("example.com/team")
                                        .withOperator("Exists").endMatchExpression().build()))
                .build();
    }

    private static JsonNode document(SortedMap<String, String> files, String file) throws Exception {
        return Json.parse(Json.mapper().writeValueAsBytes(YAML.readTree(files.get(file))));
    }

    @Test
    void theCompositeDeclaresItsChildrenStrategiesResyncAndV2Hooks() throws Exception {
        JsonNode controller = document(Manifests.generate(shelves(), GREETING), "shelf-controller.yaml");
        assertEquals("CompositeController", controller.path("kind").asText());
        assertEquals("shelf-controller", controller.at("/metadata/name").asText());
        assertTrue(controller.at("/spec/generateSelector").asBoolean());
        assertEquals(90, controller.at("/spec/resyncPeriodSeconds").asInt());
        assertEquals("{\"apiVersion\":\"example.com/v1\",\"resource\":\"shelves\"}", controller.at("/spec/parentResource").toString());
        assertEquals("[{\"apiVersion\":\"apps/v1\",\"resource\":\"statefulsets\",\"updateStrategy\":{\"method\":\"RollingInPlace\","
                + "\"statusChecks\":{\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\"}]}}},"
                + "{\"apiVersion\":\"v1\",\"resource\":\"configmaps\",\"updateStrategy\":{\"method\":\"OnDelete\"}},"
                + "{\"apiVersion\":\"example.com/v1\",\"resource\":\"widgets\",\"updateStrategy\":{\"method\":\"Recreate\"}}]",
                controller.at("/spec/childResources").toString());
        assertEquals("v2", controller.at("/spec/hooks/sync/version").asText());
        assertEquals("http://greeting.greeting-system/shelf/sync", controller.at("/spec/hooks/sync/webhook/url").asText());
        assertTrue(controller.at("/spec/hooks/finalize").isMissingNode(), "no Cleaner, no finalize hook");
        assertEquals("greeting.greeting-system", controller.at("/spec/endpointConfigs/0/host").asText());
        assertEquals("greeting-hook-token", controller.at("/spec/endpointConfigs/0/authorization/secretRef/name").asText());
    }

    @Test
    void theDecoratorDeclaresItsTargetSelectorsAndAttachments() throws Exception {
        JsonNode decorator = document(Manifests.generate(shelves(), GREETING), "budget-controller.yaml");
        assertEquals("DecoratorController", decorator.path("kind").asText());
        assertTrue(decorator.at("/spec/generateSelector").isMissingNode());
        assertEquals("{\"apiVersion\":\"apps/v1\",\"resource\":\"deployments\",\"labelSelector\":{\"matchLabels\":{\"budget\":\"yes\"}},"
                + "\"annotationSelector\":{\"matchExpressions\":[{\"key\":\"example.com/team\",\"operator\":\"Exists\"}]}}",
                decorator.at("/spec/resources/0").toString());
        assertEquals("[{\"apiVersion\":\"policy/v1\",\"resource\":\"poddisruptionbudgets\",\"updateStrategy\":{\"method\":\"InPlace\"}}]",
                decorator.at("/spec/attachments").toString());
        assertTrue(decorator.at("/spec/hooks/sync/version").isMissingNode(), "v1 unless declared");
    }

    @Test
    void theCrdCarriesTheTypesValidationColumnsAndTheStatusMetacontrollerWrites() throws Exception {
        SortedMap<String, String> files = Manifests.generate(shelves(), GREETING);
        assertFalse(files.containsKey("crd-deployments.yaml"), "fabric8's own types are the cluster's");
        JsonNode crd = document(files, "crd-shelves.yaml");
        CustomResourceDefinition typed = Json.convert(crd, CustomResourceDefinition.class);
        assertEquals("shelves.example.com", typed.getMetadata().getName());
        assertEquals("ShelfList", typed.getSpec().getNames().getListKind());
        JsonNode version = crd.at("/spec/versions/0");
        assertTrue(version.at("/subresources/status").isObject());
        List<String> columns = new ArrayList<>();
        version.path("additionalPrinterColumns").forEach(column -> columns.add(column.path("name").asText()));
        assertEquals(List.of("Size", "Ready", "Age"), columns, "the order the class declares");
        JsonNode spec = version.at("/schema/openAPIV3Schema/properties/spec");
        assertEquals("[\"size\"]", spec.path("required").toString());
        assertEquals("{\"default\":4,\"maximum\":64,\"minimum\":1,\"type\":\"integer\"}", spec.at("/properties/size").toString());
        JsonNode slots = spec.at("/properties/slots");
        assertEquals("map", slots.path("x-kubernetes-list-type").asText());
        assertEquals("[\"row\",\"column\"]", slots.path("x-kubernetes-list-map-keys").toString());
        assertEquals("int64", spec.at("/properties/capacityBytes/format").asText());
        JsonNode status = version.at("/schema/openAPIV3Schema/properties/status/properties");
        assertEquals("{\"type\":\"integer\",\"format\":\"int64\"}", status.path("observedGeneration").toString());
        assertEquals("int64", status.at("/bytesUsed/format").asText());
        JsonNode condition = status.at("/conditions/items");
        assertEquals("[\"False\",\"True\",\"Unknown\"]", condition.at("/properties/status/enum").toString());
        assertEquals(32768, condition.at("/properties/message/maxLength").asInt());
        assertEquals("date-time", condition.at("/properties/lastTransitionTime/format").asText());
    }

    @Test
    void theHookServiceRunsTheImageUnderTheServicesName() throws Exception {
        SortedMap<String, String> files = Manifests.generate(shelves(), GREETING.withSecretFile("SHELF_KEY_FILE", "greeting-shelf-key", "key"));
        List<JsonNode> service = new ArrayList<>();
        YAML.readValues(new YAMLFactory().createParser(files.get("hook-service.yaml")), JsonNode.class).forEachRemaining(service::add);
        assertEquals(List.of("ServiceAccount", "Deployment", "Service", "PodDisruptionBudget", "HorizontalPodAutoscaler", "NetworkPolicy"),
                service.stream().map(d -> d.path("kind").asText()).toList());
        JsonNode deployment = service.get(1);
        Deployment typed = Json.convert(Json.parse(Json.mapper().writeValueAsBytes(deployment)), Deployment.class);
        var container = typed.getSpec().getTemplate().getSpec().getContainers().get(0);
        assertEquals("registry.example.com/team/greeting:1.0", container.getImage());
        assertEquals("greeting-system", typed.getMetadata().getNamespace());
        assertEquals(Map.of("SHELF_KEY_FILE", "/etc/greeting/shelf-key/key", "AUTH_BEARER_TOKEN_FILE", "/etc/greeting/hook-token/token"),
                Map.of("SHELF_KEY_FILE", env(container, "SHELF_KEY_FILE"), "AUTH_BEARER_TOKEN_FILE", env(container, "AUTH_BEARER_TOKEN_FILE")));
        assertEquals("management", container.getReadinessProbe().getHttpGet().getPort().getStrVal());
        assertEquals(true, container.getSecurityContext().getReadOnlyRootFilesystem());
        assertEquals(List.of("tmp", "shelf-key", "hook-token"),
                typed.getSpec().getTemplate().getSpec().getVolumes().stream().map(v -> v.getName()).toList());
        assertTrue(files.get("namespace.yaml").contains("pod-security.kubernetes.io/enforce: restricted"));
    }

    /**
     * The pods get no variables from the namespace's Services: Kubernetes would set {@code MANAGEMENT_PORT=tcp://IP:8081}
     * for a Service named {@code management}, and {@code GREETING_PORT} for the service's own, in every pod.
     */
    @Test
    void thePodsGetNoServiceLinks() throws Exception {
        List<JsonNode> service = new ArrayList<>();
        YAML.readValues(new YAMLFactory().createParser(Manifests.generate(shelves(), GREETING).get("hook-service.yaml")), JsonNode.class)
                .forEachRemaining(service::add);
        JsonNode deployment = service.stream().filter(d -> d.path("kind").asText().equals("Deployment")).findFirst().orElseThrow();
        Deployment typed = Json.convert(Json.parse(Json.mapper().writeValueAsBytes(deployment)), Deployment.class);
        assertEquals(false, typed.getSpec().getTemplate().getSpec().getEnableServiceLinks());
    }

    /** The directory a user writes is one kustomize renders, with and without the component for older Metacontrollers. */
    @Test
    void theWrittenDirectoryRendersWithKustomize(@TempDir Path temp) throws Exception {
        Path directory = temp.resolve("deploy");
        SortedMap<String, String> written = Manifests.write(shelves(), GREETING, directory);
        assertEquals(written.get("kustomization.yaml"), Files.readString(directory.resolve("kustomization.yaml")));
        List<String> kinds = kinds(kustomize(directory));
        assertEquals(List.of("CompositeController", "CustomResourceDefinition", "Deployment", "DecoratorController",
                "HorizontalPodAutoscaler", "Namespace", "NetworkPolicy", "PodDisruptionBudget", "Service", "ServiceAccount").stream()
                .sorted().toList(), kinds);
        Path overlay = temp.resolve("older");
        Files.createDirectories(overlay);
        Files.writeString(overlay.resolve("kustomization.yaml"), "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n"
                + "resources:\n- ../deploy\ncomponents:\n- ../deploy/components/before-v4.16\n");
        String older = kustomizeText(overlay);
        assertFalse(older.contains("endpointConfigs") || older.contains("AUTH_BEARER_TOKEN_FILE") || older.contains("hook-token"), older);
    }

    /** Metacontroller and Prometheus installed elsewhere are admitted where they are, not by today's names. */
    @Test
    void theNetworkPolicyAdmitsTheNeighboursWhereTheyRun(@TempDir Path temp) throws Exception {
        ManifestOptions elsewhere = GREETING.withMetacontroller("platform-metacontroller", Map.of("app.kubernetes.io/name", "metacontroller"))
                .withMonitoring("observability", Map.of("app.kubernetes.io/name", "prometheus", "prometheus", "k8s"));
        Path directory = temp.resolve("deploy");
        Manifests.write(shelves(), elsewhere, directory);
        JsonNode policy = ofKind(kustomize(directory), "NetworkPolicy");
        assertEquals("[{\"from\":[{\"namespaceSelector\":{\"matchLabels\":{\"kubernetes.io/metadata.name\":\"platform-metacontroller\"}},"
                + "\"podSelector\":{\"matchLabels\":{\"app.kubernetes.io/name\":\"metacontroller\"}}}],"
                + "\"ports\":[{\"port\":8080,\"protocol\":\"TCP\"}]},"
                + "{\"from\":[{\"namespaceSelector\":{\"matchLabels\":{\"kubernetes.io/metadata.name\":\"observability\"}},"
                + "\"podSelector\":{\"matchLabels\":{\"app.kubernetes.io/name\":\"prometheus\",\"prometheus\":\"k8s\"}}}],"
                + "\"ports\":[{\"port\":8081,\"protocol\":\"TCP\"}]}]", Json.mapper().writeValueAsString(policy.at("/spec/ingress")));
        String all = Manifests.generate(shelves(), elsewhere).values().stream().reduce("", String::concat);
        assertFalse(all.contains("metadata.name: metacontroller") || all.contains("metadata.name: monitoring"), all);

        Path overlay = temp.resolve("older");
        Files.createDirectories(overlay);
        Files.writeString(overlay.resolve("kustomization.yaml"), "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n"
                + "resources:\n- ../deploy\ncomponents:\n- ../deploy/components/before-v4.16\n");
        JsonNode older = ofKind(kustomize(overlay), "NetworkPolicy");
        assertEquals(policy.at("/spec/ingress/0"), older.at("/spec/ingress/0"));

        JsonNode defaults = ofKind(kustomize(writeDefaults(temp.resolve("defaults"))), "NetworkPolicy");
        assertEquals("[\"metacontroller\",\"monitoring\"]", Json.mapper().writeValueAsString(
                List.of(defaults.at("/spec/ingress/0/from/0/namespaceSelector/matchLabels/kubernetes.io~1metadata.name").asText(),
                        defaults.at("/spec/ingress/1/from/0/namespaceSelector/matchLabels/kubernetes.io~1metadata.name").asText())));
        assertTrue(defaults.at("/spec/ingress/0/from/0/podSelector").isMissingNode());
        assertThrows(IllegalArgumentException.class, () -> GREETING.withMonitoring("Monitoring", Map.of()));
        assertThrows(IllegalArgumentException.class, () -> GREETING.withMetacontroller("metacontroller", Map.of("", "x")));
    }

    /** The opt-in monitors scrape what the Service and the pods really name: the management port's /metrics. */
    @Test
    void theMonitorComponentsScrapeTheManagementPort(@TempDir Path temp) throws Exception {
        Path directory = temp.resolve("deploy");
        Manifests.write(shelves(), GREETING, directory);
        for (String component : List.of("service-monitor", "pod-monitor")) {
            Path overlay = temp.resolve(component);
            Files.createDirectories(overlay);
            Files.writeString(overlay.resolve("kustomization.yaml"), "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n"
                    + "resources:\n- ../deploy\ncomponents:\n- ../deploy/components/" + component + "\n");
            List<JsonNode> objects = kustomize(overlay);
            assertEquals(kinds(kustomize(directory)).size() + 1, objects.size());
            JsonNode service = ofKind(objects, "Service");
            JsonNode pod = ofKind(objects, "Deployment").at("/spec/template");
            if (component.equals("service-monitor")) {
                JsonNode monitor = ofKind(objects, "ServiceMonitor");
                assertEquals("monitoring.coreos.com/v1", monitor.path("apiVersion").asText());
                assertEquals(service.at("/metadata/labels"), monitor.at("/spec/selector/matchLabels"));
                assertEquals("greeting-system", monitor.at("/spec/namespaceSelector/matchNames/0").asText());
                String port = monitor.at("/spec/endpoints/0/port").asText();
                assertTrue(service.at("/spec/ports").findValuesAsText("name").contains(port), port);
                assertEquals("/metrics", monitor.at("/spec/endpoints/0/path").asText());
            } else {
                JsonNode monitor = ofKind(objects, "PodMonitor");
                assertEquals(pod.at("/metadata/labels"), monitor.at("/spec/selector/matchLabels"));
                String port = monitor.at("/spec/podMetricsEndpoints/0/port").asText();
                assertTrue(pod.at("/spec/containers/0/ports").findValuesAsText("name").contains(port), port);
                assertEquals("/metrics", monitor.at("/spec/podMetricsEndpoints/0/path").asText());
            }
        }
        assertFalse(kinds(kustomize(directory)).contains("ServiceMonitor"), "opt-in only");
    }

    private static Path writeDefaults(Path directory) throws Exception {
        Manifests.write(shelves(), GREETING, directory);
        return directory;
    }

    private static JsonNode ofKind(List<JsonNode> objects, String kind) {
        return objects.stream().filter(o -> kind.equals(o.path("kind").asText())).findFirst().orElseThrow();
    }

    /** A parent type without its group and version. */
    public static class Unversioned extends CustomResource<Map<String, Object>, Map<String, Object>> implements Namespaced {
    }

    @Test
    void aParentWithoutGroupAndVersionIsAClearError() {
        // Refused at registration already, before any manifest (or hook call) could need the apiVersion.
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> Controllers.builder().composite("loose", Unversioned.class, (u, c) -> Result.keepingObserved()));
        assertTrue(error.getMessage().startsWith("controller loose: " + Unversioned.class.getName() + " has no @Group or @Version; annotate it"),
                error.getMessage());
    }

    @Test
    void theSameRegistrationGivesTheSameBytes() {
        assertEquals(Manifests.generate(shelves(), GREETING), Manifests.generate(shelves(), GREETING));
    }

    @Test
    void optionsThatCannotNameAServiceAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> ManifestOptions.service("Greeting", "img"));
        assertThrows(IllegalArgumentException.class, () -> GREETING.withNamespace("a.b"));
        IllegalArgumentException image = assertThrows(IllegalArgumentException.class, () -> GREETING.withImage(""));
        assertTrue(image.getMessage().contains("image"), image.getMessage());
    }

    @Test
    void aDeclarationThatMetacontrollerWouldRefuseFailsAtRegistration() {
        IllegalArgumentException selector = assertThrows(IllegalArgumentException.class, () -> Controllers.builder()
                .decorator("budget", Deployment.class, (d, c) -> Result.keepingObserved(), Declaration.none().generateSelector(false)));
        assertTrue(selector.getMessage().startsWith("controller budget: generateSelector is a CompositeController setting"), selector.getMessage());
        IllegalArgumentException annotations = assertThrows(IllegalArgumentException.class, () -> Controllers.builder()
                .composite("shelf", Shelf.class, (s, c) -> Result.keepingObserved(),
                        Declaration.none().annotationSelector(new LabelSelectorBuilder().build())));
        assertTrue(annotations.getMessage().startsWith("controller shelf: annotationSelector is a DecoratorController setting;"
                + " a composite selects its parents by labelSelector"), annotations.getMessage());
        IllegalArgumentException twice = assertThrows(IllegalArgumentException.class, () -> Declaration.children(
                Child.of(ConfigMap.class, Update.IN_PLACE), Child.of(ConfigMap.class, Update.ON_DELETE)));
        assertEquals("child resource v1 configmaps is declared twice", twice.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Declaration.none().resync(Duration.ofMillis(1500)));
        assertThrows(IllegalArgumentException.class, () -> Declaration.none().hookVersion("v3"));
    }

    @Group("example.com")
    @Version("v1")
    public static class Crate extends CustomResource<Object, Crate.Status> implements Namespaced {
        public record Status(String conditions) {
        }
    }

    /** A status whose conditions field could hold neither metahook's nor Metacontroller's conditions is refused (issue 37, D3). */
    @Test
    void aStatusWhoseConditionsAreNotAListOfConditionsIsRefused() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> Manifests.crdFile(Crate.class, true));
        assertTrue(refused.getMessage().startsWith(Crate.class.getName() + ": status.conditions is a string; on a terminal error metahook"
                + " writes its Ready, Reconciling and Stalled conditions there"), refused.getMessage());
    }

    /** Metacontroller v4.6.0 and later sync only the parents parentResource.labelSelector selects (issue 37, D2). */
    @Test
    void aCompositeSelectsItsParentsByLabel() {
        Controllers selecting = Controllers.builder().composite("shelf", Shelf.class, (s, c) -> Result.keepingObserved(),
                Declaration.none().labelSelector(new LabelSelectorBuilder().addToMatchLabels("team", "a")
                        .addNewMatchExpression().withKey("tier").withOperator("In").withValues("gold").endMatchExpression().build())).build();
        JsonNode parent = Manifests.controller(selecting.get("shelf").orElseThrow(), GREETING).at("/spec/parentResource");
        assertEquals("{\"apiVersion\":\"example.com/v1\",\"resource\":\"shelves\",\"labelSelector\":{\"matchExpressions\":"
                + "[{\"key\":\"tier\",\"operator\":\"In\",\"values\":[\"gold\"]}],\"matchLabels\":{\"team\":\"a\"}}}", parent.toString());
        assertTrue(Manifests.controller(shelves().get("shelf").orElseThrow(), GREETING).at("/spec/parentResource/labelSelector").isMissingNode(),
                "every parent of the type unless declared");
    }

    @Test
    void aCompositeNamesTheParentFieldsThatStartARollingUpdate() {
        Controllers rolling = Controllers.builder().composite("shelf", Shelf.class, (s, c) -> Result.keepingObserved(),
                Declaration.children(Child.of(StatefulSet.class, Update.rollingRecreate())).revisionHistory("spec.template", "spec.size")).build();
        JsonNode parent = Manifests.controller(rolling.get("shelf").orElseThrow(), GREETING).at("/spec/parentResource");
        assertEquals("{\"apiVersion\":\"example.com/v1\",\"resource\":\"shelves\",\"revisionHistory\":{\"fieldPaths\":[\"spec.template\",\"spec.size\"]}}",
                parent.toString());
        assertTrue(Manifests.controller(shelves().get("shelf").orElseThrow(), GREETING).at("/spec/parentResource/revisionHistory").isMissingNode(),
                "Metacontroller's default (the whole spec) unless declared");
        IllegalArgumentException decorator = assertThrows(IllegalArgumentException.class, () -> Controllers.builder()
                .decorator("budget", Deployment.class, (d, c) -> Result.keepingObserved(), Declaration.none().revisionHistory("spec")));
        assertTrue(decorator.getMessage().startsWith("controller budget: revisionHistory is a CompositeController setting"), decorator.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Declaration.none().revisionHistory());
        assertThrows(IllegalArgumentException.class, () -> Declaration.none().revisionHistory(" "));
    }

    private static String env(io.fabric8.kubernetes.api.model.Container container, String name) {
        return container.getEnv().stream().filter(e -> e.getName().equals(name)).findFirst().orElseThrow().getValue();
    }

    private static List<String> kinds(List<JsonNode> documents) {
        return documents.stream().map(d -> d.path("kind").asText()).sorted().toList();
    }

    private static List<JsonNode> kustomize(Path directory) throws Exception {
        List<JsonNode> documents = new ArrayList<>();
        YAML.readValues(new YAMLFactory().createParser(kustomizeText(directory)), JsonNode.class).forEachRemaining(documents::add);
        return documents;
    }

    private static String kustomizeText(Path directory) throws Exception {
        Process process = new ProcessBuilder("kubectl", "kustomize", directory.toString()).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, process.exitValue(), output);
        return output;
    }
}
