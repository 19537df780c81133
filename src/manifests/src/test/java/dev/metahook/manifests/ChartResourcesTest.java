package dev.metahook.manifests;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The chart's own files are resources of metahook-manifests: each of them is in every generated chart. */
class ChartResourcesTest {
    @Test
    void everyFileOfTheChartsResourcesIsInTheGeneratedChart() throws Exception {
        URI chart = Chart.class.getResource("chart/Chart.yaml").toURI();
        Set<String> resources = new TreeSet<>();
        try (FileSystem jar = chart.getScheme().equals("jar") ? FileSystems.newFileSystem(chart, Map.of()) : null) {
            Path root = Path.of(chart).getParent();
            try (Stream<Path> files = Files.walk(root)) {
                files.filter(Files::isRegularFile).forEach(file -> resources.add(root.relativize(file).toString().replace('\\', '/')));
            }
        }
        Set<String> copied = new TreeSet<>();
        Manifests.generate(ManifestsGenerationTest.shelves(), ManifestOptions.service("greeting", "registry.example.com/greeting:1.0"),
                Set.of(Manifests.Format.HELM)).keySet().stream()
                .map(file -> file.substring(Chart.DIRECTORY.length()))
                .filter(file -> !file.startsWith("crds/") && !file.endsWith("-controller.yaml"))
                .forEach(copied::add);
        assertEquals(resources, copied);
    }
}
