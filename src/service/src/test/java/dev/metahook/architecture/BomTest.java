package dev.metahook.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The BOM a user imports pins what the reactor is built and tested with: its own version and the versions of
 * the libraries a service runs on are the parent pom's, and it lists every published module.
 */
class BomTest {
    private static final List<String> PINNED = List.of("fabric8.version", "jackson.version", "jetty.version", "micrometer.version",
            "prometheus.version", "logback.version", "opentelemetry.version");

    @Test
    void theBomPinsTheVersionsTheReactorIsBuiltWith() throws IOException {
        String parent = Files.readString(Path.of("pom.xml"));
        String bom = Files.readString(Path.of("src/bom/pom.xml"));
        assertEquals(projectVersion(parent, "metahook-parent"), projectVersion(bom, "metahook-bom"));
        for (String property : PINNED) {
            assertEquals(property(parent, property), property(bom, property), property);
        }
        for (String module : List.of("metahook", "metahook-testkit", "metahook-manifests", "metahook-maven-plugin")) {
            assertTrue(bom.contains("<artifactId>" + module + "</artifactId>\n        <version>${project.version}</version>"), module);
        }
    }

    private static String projectVersion(String pom, String artifact) {
        Matcher version = Pattern.compile("<artifactId>" + artifact + "</artifactId>\\n  <version>([^<]+)</version>").matcher(pom);
        assertTrue(version.find(), artifact);
        return version.group(1);
    }

    private static String property(String pom, String name) {
        Matcher value = Pattern.compile("<" + Pattern.quote(name) + ">([^<]+)</" + Pattern.quote(name) + ">").matcher(pom);
        assertTrue(value.find(), name);
        return value.group(1);
    }
}
