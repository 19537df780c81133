package dev.metahook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahook.internal.wire.Json;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;

/**
 * The SBOM the image carries (/opt/metahook/sbom.cdx.json, copied from the build's src/service/target/metahook-sbom.json)
 * names every artifact the service jar is made of, at its version (the test kit too: the service runs {@code check}), and
 * nothing only the tests use.
 */
class ImageSbomIT {
    @Test
    void theImagesSbomNamesEveryArtifactTheServiceJarCarries() throws Exception {
        assertTrue(ContainerTest.instructions().contains(
                "COPY --from=build /src/src/service/target/metahook-sbom.json /opt/metahook/sbom.cdx.json"), "the Dockerfile copies it");
        JsonNode sbom = Json.parse(Files.readAllBytes(Path.of("src/service/target/metahook-sbom.json")));
        assertEquals("CycloneDX", sbom.path("bomFormat").asText());
        Set<String> listed = new TreeSet<>();
        sbom.path("components").forEach(c -> listed.add(c.path("group").asText() + ":" + c.path("name").asText() + ":" + c.path("version").asText()));
        Set<String> carried = new TreeSet<>();
        try (JarFile jar = new JarFile("target/metahook.jar")) {
            for (var entry : jar.stream().filter(e -> e.getName().startsWith("META-INF/maven/") && e.getName().endsWith("/pom.properties")).toList()) {
                Properties properties = new Properties();
                try (InputStream in = jar.getInputStream(entry)) {
                    properties.load(in);
                }
                String artifact = properties.getProperty("groupId") + ":" + properties.getProperty("artifactId") + ":" + properties.getProperty("version");
                if (!artifact.startsWith("dev.metahook:metahook-service:")) {
                    carried.add(artifact);
                }
            }
        }
        assertTrue(carried.size() > 20, carried.toString());
        Set<String> missing = new TreeSet<>(carried);
        missing.removeAll(listed);
        assertEquals(Set.of(), missing, "carried by target/metahook.jar but not in its SBOM");
        assertTrue(listed.stream().noneMatch(a -> a.startsWith("org.junit") || a.contains("rest-assured") || a.contains(":mockito")),
                "test-only artifacts in " + listed);
    }
}
