package dev.metahook.manifests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahook.testing.Helm;
import dev.metahook.testing.Kustomize;
import dev.metahook.testing.RenderedObjects;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A user's service (a composite with its own CRD and a decorator of Deployments) gets a chart from the same
 * registration as its kustomize directory, with the same objects for the same choices, TLS and client certificates
 * included (issue 37, D4: HTTPS hook URLs, the CA and the client certificate for every generated service).
 */
class UserChartTest {
    private static final ManifestOptions GREETING = ManifestOptions.service("greeting", "registry.example.com/team/greeting:1.0.0")
            .withSecretFile("SHELF_KEY_FILE", "greeting-shelf-key", "key");

    private static SortedMap<String, JsonNode> kustomize(Path base, Path overlay, List<String> components) throws Exception {
        StringBuilder text = new StringBuilder("apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n- "
                + overlay.relativize(base) + "\n");
        if (!components.isEmpty()) {
            text.append("components:\n");
            components.forEach(c -> text.append("- ").append(overlay.relativize(base.resolve("components").resolve(c))).append('\n'));
        }
        Files.createDirectories(overlay);
        Files.writeString(overlay.resolve("kustomization.yaml"), text.toString());
        return RenderedObjects.of(Kustomize.build(overlay));
    }

    @Test
    void theChartOfAUsersServiceRendersItsKustomizeDirectory(@TempDir Path temp) throws Exception {
        Path deploy = temp.resolve("deploy");
        Manifests.write(ManifestsGenerationTest.shelves(), GREETING, deploy);
        Path chart = deploy.resolve("chart");
        Helm.lint(chart, Map.of());
        SortedMap<String, JsonNode> plain = kustomize(deploy, temp.resolve("plain"), List.of());
        plain.remove("v1 Namespace /greeting-system");
        RenderedObjects.assertSame(plain, RenderedObjects.of(Helm.template(chart, "greeting-system", Map.of())), "default values");
        assertTrue(plain.containsKey("metacontroller.k8s.io/v1alpha1 DecoratorController /budget-controller"), plain.keySet().toString());
        assertTrue(plain.containsKey("apiextensions.k8s.io/v1 CustomResourceDefinition /shelves.example.com"), plain.keySet().toString());
        assertEquals("1.0.0", Files.readString(chart.resolve("Chart.yaml")).lines().filter(l -> l.startsWith("version: ")).findFirst()
                .orElseThrow().substring("version: ".length()));
    }

    /** HTTPS with client certificates for both controllers, a PodMonitor, in another namespace. */
    @Test
    void tlsAndClientCertificatesAreOfferedForAUsersServiceInBoth(@TempDir Path temp) throws Exception {
        ManifestOptions elsewhere = GREETING.withNamespace("shelves");
        Path deploy = temp.resolve("deploy");
        Manifests.write(ManifestsGenerationTest.shelves(), elsewhere, deploy);
        SortedMap<String, JsonNode> kustomize = kustomize(deploy, temp.resolve("tls"), List.of("tls", "client-tls", "pod-monitor"));
        Map<String, String> values = new LinkedHashMap<>();
        values.put("namespace.create", "true");
        values.put("tls.enabled", "true");
        values.put("tls.clientAuth.enabled", "true");
        values.put("podMonitor.enabled", "true");
        SortedMap<String, JsonNode> chart = RenderedObjects.of(Helm.template(deploy.resolve("chart"), "shelves", values));
        RenderedObjects.assertSame(kustomize, chart, "TLS, client certificates and a PodMonitor");
        for (String controller : List.of("CompositeController /shelf-controller", "DecoratorController /budget-controller")) {
            JsonNode spec = chart.get("metacontroller.k8s.io/v1alpha1 " + controller).get("spec");
            spec.at("/hooks").findValuesAsText("url").forEach(url -> assertTrue(url.startsWith("https://greeting.shelves/"), url));
            assertEquals("greeting-tls", spec.at("/endpointConfigs/0/caBundle/secretRef/name").asText(), controller);
            assertEquals("greeting-client-tls", spec.at("/endpointConfigs/0/clientTLS/secretRef/name").asText(), controller);
            assertEquals("shelves", spec.at("/endpointConfigs/0/clientTLS/secretRef/namespace").asText(), controller);
        }
        JsonNode container = chart.get("apps/v1 Deployment shelves/greeting").at("/spec/template/spec/containers/0");
        Map<String, String> env = new LinkedHashMap<>();
        container.path("env").forEach(variable -> env.put(variable.path("name").asText(), variable.path("value").asText()));
        assertEquals("/etc/greeting/tls/tls.crt", env.get("TLS_CERT_FILE"));
        assertEquals("/etc/greeting/tls/ca.crt", env.get("TLS_CLIENT_CA_FILE"));
        assertEquals("/etc/greeting/shelf-key/key", env.get("SHELF_KEY_FILE"), "the user's Secret files stay");
        assertEquals(443, chart.get("v1 Service shelves/greeting").at("/spec/ports/0/port").asInt());
    }

    @Test
    void eitherFormatIsWrittenAlone(@TempDir Path temp) {
        SortedMap<String, String> helm = Manifests.write(ManifestsGenerationTest.shelves(), GREETING, EnumSet.of(Manifests.Format.HELM),
                temp.resolve("helm"));
        assertTrue(helm.keySet().stream().allMatch(file -> file.startsWith("chart/")), helm.keySet().toString());
        assertTrue(helm.containsKey("chart/crds/crd-shelves.yaml") && helm.containsKey("chart/templates/budget-controller.yaml"));
        SortedMap<String, String> kustomize = Manifests.generate(ManifestsGenerationTest.shelves(), GREETING,
                EnumSet.of(Manifests.Format.KUSTOMIZE));
        assertFalse(kustomize.keySet().stream().anyMatch(file -> file.startsWith("chart/")), kustomize.keySet().toString());
        assertTrue(kustomize.containsKey("components/tls/kustomization.yaml") && kustomize.containsKey("components/client-tls/kustomization.yaml"));
        SortedMap<String, String> both = Manifests.generate(ManifestsGenerationTest.shelves(), GREETING);
        assertEquals(helm.size() + kustomize.size(), both.size());
        assertThrows(IllegalArgumentException.class, () -> Manifests.generate(ManifestsGenerationTest.shelves(), GREETING,
                EnumSet.noneOf(Manifests.Format.class)));
    }

    /** The image's digest goes into its own value, and the chart renders the reference as given. */
    @Test
    void anImagePinnedByDigestIsRenderedAsGiven(@TempDir Path temp) throws Exception {
        String image = "registry.example.com/team/greeting:1.0.0@sha256:" + "b".repeat(64);
        Manifests.write(ManifestsGenerationTest.shelves(), GREETING.withImage(image), temp);
        assertTrue(Files.readString(temp.resolve("chart/values.yaml")).contains("  digest: \"sha256:" + "b".repeat(64) + "\"\n"));
        JsonNode deployment = RenderedObjects.of(Helm.template(temp.resolve("chart"), "greeting-system", Map.of()))
                .get("apps/v1 Deployment greeting-system/greeting");
        assertEquals(image, deployment.at("/spec/template/spec/containers/0/image").asText());
    }
}
