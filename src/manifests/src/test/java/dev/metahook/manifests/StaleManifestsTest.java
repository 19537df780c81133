package dev.metahook.manifests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.metahook.api.Child;
import dev.metahook.api.Controllers;
import dev.metahook.api.Declaration;
import dev.metahook.api.Result;
import dev.metahook.api.Update;
import dev.metahook.testing.Helm;
import dev.metahook.testing.RenderedObjects;
import io.fabric8.kubernetes.api.model.ConfigMap;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Writing the manifests again owns the directory: what the registration no longer makes is gone, a file of your own stays. */
class StaleManifestsTest {
    private static final ManifestOptions GREETING = ManifestOptions.service("greeting", "registry.example.com/team/greeting:1.0.0");

    private static Controllers renamed() {
        return Controllers.builder()
                .composite("rack", ManifestsGenerationTest.Shelf.class, (shelf, context) -> Result.keepingObserved(),
                        Declaration.children(Child.of(ConfigMap.class, Update.ON_DELETE)))
                .build();
    }

    private static Set<String> files(Path directory) throws Exception {
        Set<String> files = new TreeSet<>();
        try (Stream<Path> walk = Files.walk(directory)) {
            walk.filter(Files::isRegularFile).forEach(file -> files.add(directory.relativize(file).toString().replace('\\', '/')));
        }
        return files;
    }

    @Test
    void aRenamedRegistrationLeavesNoControllerBehind(@TempDir Path directory) throws Exception {
        Manifests.write(ManifestsGenerationTest.shelves(), GREETING, directory);
        assertTrue(Files.exists(directory.resolve("chart/templates/shelf-controller.yaml")));
        Files.writeString(directory.resolve("my-overlay.yaml"), "# mine\nnamePrefix: team-\n");

        Set<String> written = Manifests.write(renamed(), GREETING, directory).keySet();

        Set<String> expected = new TreeSet<>(written);
        expected.add("my-overlay.yaml");
        assertEquals(expected, files(directory));
        assertEquals(Set.of("metacontroller.k8s.io/v1alpha1 CompositeController /rack-controller"),
                RenderedObjects.of(Helm.template(directory.resolve("chart"), "greeting-system", Map.of())).keySet().stream()
                        .filter(key -> key.startsWith("metacontroller.k8s.io")).collect(java.util.stream.Collectors.toSet()));
    }

    @Test
    void aFormatNoLongerWrittenIsGoneWithItsDirectories(@TempDir Path directory) throws Exception {
        Manifests.write(ManifestsGenerationTest.shelves(), GREETING, directory);
        Set<String> written = Manifests.write(ManifestsGenerationTest.shelves(), GREETING, EnumSet.of(Manifests.Format.HELM), directory)
                .keySet();
        assertEquals(written, files(directory));
        assertFalse(Files.exists(directory.resolve("components")), "the emptied directories go too");
        assertTrue(written.stream().allMatch(file -> file.startsWith("chart/")), written.toString());
        assertEquals(List.of("chart"), Files.list(directory).map(path -> path.getFileName().toString()).toList());
    }
}
