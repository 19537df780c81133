package dev.metahook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahook.manifests.ManifestOptions;
import dev.metahook.manifests.Manifests;
import dev.metahook.testing.Helm;
import dev.metahook.testing.Kustomize;
import dev.metahook.testing.RenderedObjects;
import dev.metahook.testing.Tools;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import org.junit.jupiter.api.Test;

/**
 * The built-in service's chart, metacontroller/chart: it lints, and renders the same objects as the kustomize
 * directory (and its components) for the same choices.
 */
class ChartTest {
    private static final Path CHART = Path.of("metacontroller/chart");

    private static SortedMap<String, JsonNode> helm(String namespace, Map<String, String> values) {
        return RenderedObjects.of(Helm.template(CHART, namespace, values));
    }

    /** kustomize's rendering of the built-in directory for these options, through an overlay with these components. */
    private static SortedMap<String, JsonNode> kustomize(String name, ManifestOptions options, List<String> components) throws IOException {
        Path root = Path.of("target/chart-test", name);
        Manifests.write(BuiltInControllers.all(ManifestsCommand.UNUSED_KEY), options, EnumSet.of(Manifests.Format.KUSTOMIZE),
                root.resolve("base"));
        StringBuilder overlay = new StringBuilder("apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n- ../base\n");
        if (!components.isEmpty()) {
            overlay.append("components:\n");
            components.forEach(component -> overlay.append("- ../base/components/").append(component).append('\n'));
        }
        Files.createDirectories(root.resolve("overlay"));
        Files.writeString(root.resolve("overlay/kustomization.yaml"), overlay.toString());
        return RenderedObjects.of(Kustomize.build(root.resolve("overlay")));
    }

    @Test
    void theChartLintsWithDefaultAndOtherValues() {
        Helm.lint(CHART, Map.of());
        Helm.lint(CHART, Map.of("tls.enabled", "true", "tls.clientAuth.enabled", "true", "serviceMonitor.enabled", "true",
                "autoscaling.enabled", "false", "replicas", "3", "namespace.create", "true", "image.digest", "sha256:" + "0".repeat(64)));
    }

    /** By default the chart is the kustomize directory less its Namespace, which Helm (or you) makes. */
    @Test
    void byDefaultTheChartRendersTheKustomizeDirectory() throws Exception {
        SortedMap<String, JsonNode> kustomize = RenderedObjects.of(Kustomize.build(Path.of("metacontroller")));
        JsonNode namespace = kustomize.remove("v1 Namespace /metahook-system");
        assertTrue(namespace != null, kustomize.keySet().toString());
        RenderedObjects.assertSame(kustomize, helm("metahook-system", Map.of()), "helm template with the default values");
        kustomize.put("v1 Namespace /metahook-system", namespace);
        RenderedObjects.assertSame(kustomize, helm("metahook-system", Map.of("namespace.create", "true")), "with namespace.create");
    }

    /** TLS with client certificates, a ServiceMonitor, and Metacontroller, Prometheus and the service in other namespaces. */
    @Test
    void withOtherChoicesTheChartRendersWhatTheComponentsDo() throws Exception {
        ManifestOptions options = ManifestsCommand.manifestOptions().withNamespace("hooks")
                .withMetacontroller("platform", Map.of("app.kubernetes.io/name", "metacontroller"))
                .withMonitoring("observability", Map.of("prometheus", "k8s"));
        SortedMap<String, JsonNode> kustomize = kustomize("tls", options, List.of("tls", "client-tls", "service-monitor"));
        Map<String, String> values = new LinkedHashMap<>();
        values.put("namespace.create", "true");
        values.put("tls.enabled", "true");
        values.put("tls.clientAuth.enabled", "true");
        values.put("serviceMonitor.enabled", "true");
        values.put("metacontroller.namespace", "platform");
        values.put("metacontroller.podLabels.app\\.kubernetes\\.io/name", "metacontroller");
        values.put("monitoring.namespace", "observability");
        values.put("monitoring.podLabels.prometheus", "k8s");
        SortedMap<String, JsonNode> chart = helm("hooks", values);
        RenderedObjects.assertSame(kustomize, chart, "TLS, client certificates, a ServiceMonitor, other namespaces");
        JsonNode controller = chart.get("metacontroller.k8s.io/v1alpha1 CompositeController /database-controller");
        assertEquals("https://metahook.hooks/database/finalize", controller.at("/spec/hooks/finalize/webhook/url").asText());
        assertEquals("metahook-client-tls", controller.at("/spec/endpointConfigs/0/clientTLS/secretRef/name").asText());

        SortedMap<String, JsonNode> podMonitor = kustomize("pod-monitor", ManifestsCommand.manifestOptions(), List.of("pod-monitor", "tls"));
        podMonitor.remove("v1 Namespace /metahook-system");
        RenderedObjects.assertSame(podMonitor, helm("metahook-system", Map.of("podMonitor.enabled", "true", "tls.enabled", "true")),
                "a PodMonitor and TLS without client certificates");
    }

    /** hookToken.enabled=false is the component for Metacontroller before v4.16. */
    @Test
    void withoutTheTokenTheChartIsTheComponentForOlderMetacontrollers() throws Exception {
        SortedMap<String, JsonNode> kustomize = kustomize("older", ManifestsCommand.manifestOptions(), List.of("before-v4.16"));
        kustomize.remove("v1 Namespace /metahook-system");
        SortedMap<String, JsonNode> chart = helm("metahook-system", Map.of("hookToken.enabled", "false"));
        RenderedObjects.assertSame(kustomize, chart, "hookToken.enabled=false");
        assertFalse(chart.toString().contains("hook-token") || chart.toString().contains("endpointConfigs"), chart.toString());
    }

    /** The values kustomize has no component for: each lands where it says. */
    @Test
    void theOtherValuesLandWhereTheySay() {
        Map<String, String> values = new LinkedHashMap<>();
        values.put("image.repository", "registry.example.com/team/metahook");
        values.put("image.tag", "1.2.3");
        values.put("image.digest", "sha256:" + "a".repeat(64));
        values.put("image.pullPolicy", "IfNotPresent");
        values.put("autoscaling.enabled", "false");
        values.put("replicas", "3");
        values.put("podDisruptionBudget.minAvailable", "2");
        values.put("networkPolicy.enabled", "false");
        values.put("resources.limits.memory", "1Gi");
        values.put("hookToken.secretName", "shared-token");
        values.put("labels.team", "platform");
        values.put("annotations.owner", "platform@example.com");
        values.put("podLabels.tier", "hooks");
        values.put("podAnnotations.scrape", "no");
        values.put("podSecurityContext.runAsUser", "20000");
        SortedMap<String, JsonNode> chart = helm("metahook-system", values);
        JsonNode deployment = chart.get("apps/v1 Deployment metahook-system/metahook");
        JsonNode container = deployment.at("/spec/template/spec/containers/0");
        assertEquals("registry.example.com/team/metahook:1.2.3@sha256:" + "a".repeat(64), container.path("image").asText());
        assertEquals("IfNotPresent", container.path("imagePullPolicy").asText());
        assertEquals(3, deployment.at("/spec/replicas").asInt());
        assertEquals("1Gi", container.at("/resources/limits/memory").asText());
        assertEquals("100m", container.at("/resources/requests/cpu").asText(), "the other defaults stay");
        assertEquals(20000, deployment.at("/spec/template/spec/securityContext/runAsUser").asInt());
        assertTrue(deployment.at("/spec/template/spec/securityContext/runAsNonRoot").asBoolean());
        assertEquals("hooks", deployment.at("/spec/template/metadata/labels/tier").asText());
        assertEquals("no", deployment.at("/spec/template/metadata/annotations/scrape").asText());
        assertEquals("metahook", deployment.at("/spec/selector/matchLabels").properties().size() == 1
                ? deployment.at("/spec/selector/matchLabels/app.kubernetes.io~1name").asText() : "more selector labels", "selectors keep one label");
        assertTrue(deployment.at("/spec/template/spec/volumes").toString().contains("\"secretName\":\"shared-token\""));
        assertFalse(chart.keySet().stream().anyMatch(key -> key.contains("HorizontalPodAutoscaler") || key.contains("NetworkPolicy")),
                chart.keySet().toString());
        assertEquals(2, chart.get("policy/v1 PodDisruptionBudget metahook-system/metahook").at("/spec/minAvailable").asInt());
        for (var object : chart.entrySet()) {
            if (object.getKey().contains("CustomResourceDefinition")) {
                continue; // crds/ are Helm's plain files: installed as they are
            }
            assertEquals("platform", object.getValue().at("/metadata/labels/team").asText(), object.getKey());
            assertEquals("platform@example.com", object.getValue().at("/metadata/annotations/owner").asText(), object.getKey());
        }
        assertEquals("shared-token", chart.get("metacontroller.k8s.io/v1alpha1 CompositeController /webapp-controller")
                .at("/spec/endpointConfigs/0/authorization/secretRef/name").asText());
    }

    /** A misspelt value, one of the wrong type, and client certificates without TLS: each an error naming it, nothing rendered. */
    @Test
    void badValuesAreRefusedNamingThem() {
        Tools.Run clientAuth = Helm.templateRun(CHART, "metahook-system", Map.of("tls.clientAuth.enabled", "true"));
        assertTrue(clientAuth.exit() != 0 && clientAuth.output().contains("tls.clientAuth.enabled needs tls.enabled"), clientAuth.output());
        Tools.Run misspelt = Helm.templateRun(CHART, "metahook-system", Map.of("tls.enable", "true"));
        assertTrue(misspelt.exit() != 0 && misspelt.output().contains("enable"), misspelt.output());
        assertFalse(misspelt.output().contains("kind: Deployment"), "nothing rendered");
        Tools.Run replicas = Helm.templateRun(CHART, "metahook-system", Map.of("replicas", "many"));
        assertTrue(replicas.exit() != 0 && replicas.output().contains("replicas"), replicas.output());
        Tools.Run digest = Helm.templateRun(CHART, "metahook-system", Map.of("image.digest", "latest"));
        assertTrue(digest.exit() != 0 && digest.output().contains("digest"), digest.output());
    }
}
