package dev.metahook.manifests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahook.api.Child;
import dev.metahook.api.CompositeController;
import dev.metahook.api.Context;
import dev.metahook.api.Customizer;
import dev.metahook.api.RelatedRule;
import dev.metahook.api.Controllers;
import dev.metahook.api.Declaration;
import dev.metahook.api.Result;
import dev.metahook.api.Update;
import dev.metahook.internal.registration.ControllerManifest;
import dev.metahook.testing.Helm;
import dev.metahook.testing.Kustomize;
import dev.metahook.testing.RenderedObjects;
import io.fabric8.kubernetes.api.model.ConfigMap;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Labels and annotations declared for a controller land on its CompositeController (what Metacontroller's
 * {@code --target-label-selector} picks by), in the kustomize directory and the chart alike; a key Kubernetes
 * would refuse is refused when the registration is built.
 */
class ControllerMetadataTest {
    private static final ManifestOptions GREETING = ManifestOptions.service("greeting", "registry.example.com/team/greeting:1.0.0");
    private static final String CONTROLLER = "metacontroller.k8s.io/v1alpha1 CompositeController /shelf-controller";

    private static Controllers labelled() {
        return Controllers.builder()
                .composite("shelf", ManifestsGenerationTest.Shelf.class, (shelf, context) -> Result.keepingObserved(),
                        Declaration.children(Child.of(ConfigMap.class, Update.ON_DELETE))
                                .controllerLabels(Map.of("metacontroller.example.com/instance", "team-a"))
                                .controllerAnnotations(Map.of("owner", "team-a@example.com")))
                .build();
    }

    @Test
    void declaredLabelsAndAnnotationsLandOnTheControllerInBothFormats(@TempDir Path directory) throws Exception {
        Manifests.write(labelled(), GREETING, directory);
        JsonNode kustomize = RenderedObjects.of(Kustomize.build(directory)).get(CONTROLLER).get("metadata");
        assertEquals("shelf-controller", kustomize.path("name").asText(), "named NAME-controller");
        assertEquals(Map.of("metacontroller.example.com/instance", "team-a"), map(kustomize.get("labels")));
        assertEquals(Map.of("owner", "team-a@example.com"), map(kustomize.get("annotations")));

        SortedMap<String, JsonNode> chart = RenderedObjects.of(Helm.template(directory.resolve("chart"), "greeting-system",
                Map.of("labels.team", "a", "annotations.note", "n")));
        JsonNode metadata = chart.get(CONTROLLER).get("metadata");
        assertEquals(Map.of("metacontroller.example.com/instance", "team-a", "team", "a"), map(metadata.get("labels")));
        assertEquals(Map.of("owner", "team-a@example.com", "note", "n"), map(metadata.get("annotations")));
        SortedMap<String, JsonNode> plain = RenderedObjects.of(Kustomize.build(directory));
        plain.remove("v1 Namespace /greeting-system");
        RenderedObjects.assertSame(plain, RenderedObjects.of(Helm.template(directory.resolve("chart"), "greeting-system", Map.of())),
                "the chart with the default values");
    }

    @Test
    void aKeyKubernetesRefusesIsRefusedNamingIt() {
        IllegalArgumentException key = assertThrows(IllegalArgumentException.class,
                () -> Declaration.none().controllerLabels(Map.of("has space", "x")));
        assertEquals("controllerLabels: 'has space' is not a key Kubernetes takes (an optional DNS subdomain and '/', then at most 63"
                + " letters, digits, '-', '_' or '.', starting and ending with a letter or digit)", key.getMessage());
        IllegalArgumentException value = assertThrows(IllegalArgumentException.class,
                () -> Declaration.none().controllerLabels(Map.of("team", "a/b")));
        assertEquals("controllerLabels: the value of team is not a label value (at most 63 letters, digits, '-', '_' or '.', starting"
                + " and ending with a letter or digit), got 'a/b'", value.getMessage());
    }

    private static Map<String, String> map(JsonNode node) {
        Map<String, String> map = new java.util.TreeMap<>();
        node.properties().forEach(field -> map.put(field.getKey(), field.getValue().asText()));
        return map;
    }

    /** A shelf whose sync needs the ConfigMap its customize hook names. */
    static final class Stocking implements CompositeController<ManifestsGenerationTest.Shelf, Object>, Customizer<ManifestsGenerationTest.Shelf> {
        @Override
        public Result<Object> sync(ManifestsGenerationTest.Shelf shelf, Context context) {
            return Result.keepingObserved();
        }

        @Override
        public List<RelatedRule> customize(ManifestsGenerationTest.Shelf shelf, Context context) {
            return List.of(RelatedRule.named("v1", "configmaps", "stock"));
        }
    }

    @Test
    void requiredRelatedObjectsAreAnAnnotationOnTheControllerAndNeedACustomizeHook() {
        Controllers stocking = Controllers.builder().composite("shelf", ManifestsGenerationTest.Shelf.class, new Stocking(),
                Declaration.children(Child.of(ConfigMap.class, Update.ON_DELETE)).requiresRelated()).build();
        JsonNode metadata = ControllerManifest.of(stocking.get("shelf").orElseThrow(), "greeting", "greeting-system").get("metadata");
        assertEquals(Map.of(Declaration.REQUIRES_RELATED, "true"), map(metadata.get("annotations")));

        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> Controllers.builder()
                .composite("shelf", ManifestsGenerationTest.Shelf.class, (shelf, context) -> Result.keepingObserved(),
                        Declaration.none().requiresRelated()));
        assertEquals("controller shelf: requiresRelated says the related objects its customize hook selects are required, but it has no"
                + " customize hook: implement Customizer", refused.getMessage());
    }
}
