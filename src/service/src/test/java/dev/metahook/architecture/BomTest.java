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
            "prometheus.version", "logback.version", "opentelemetry.version", "javalin.version", "slf4j.version", "kotlin.version");
    /** What the parent manages for its own build and tests only: nothing a service resolves through metahook. */
    private static final List<String> BUILD_ONLY = List.of("org.apache.maven", "org.apache.maven.plugin-tools", "org.junit", "io.rest-assured",
            "net.jqwik", "com.tngtech.archunit", "org.openjdk.jmh");

    @Test
    void theBomPinsTheVersionsTheReactorIsBuiltWith() throws IOException {
        String parent = Files.readString(Path.of("pom.xml"));
        String bom = Files.readString(Path.of("src/bom/pom.xml"));
        assertEquals(projectVersion(parent, "metahook-parent"), projectVersion(bom, "metahook-bom"));
        for (String property : PINNED) {
            assertEquals(property(parent, property), property(bom, property), property);
        }
        for (String module : List.of("metahook", "metahook-testkit", "metahook-manifests", "metahook-maven-plugin",
                "metahook-spring-boot-starter")) {
            assertTrue(bom.contains("<artifactId>" + module + "</artifactId>\n        <version>${project.version}</version>"), module);
        }
    }

    /**
     * Every library the parent manages for the published modules is pinned by the BOM too (fabric8's through the fabric8
     * BOM it imports): a user's dependencyConvergence and requireUpperBoundDeps then see the versions metahook is built with.
     */
    @Test
    void theBomPinsEveryLibraryTheParentManagesForAService() throws IOException {
        String parent = Files.readString(Path.of("pom.xml"));
        String bom = Files.readString(Path.of("src/bom/pom.xml"));
        String managed = parent.substring(parent.indexOf("<dependencyManagement>"), parent.indexOf("</dependencyManagement>"));
        Matcher dependency = Pattern.compile("<groupId>([^<]+)</groupId>\\s*<artifactId>([^<]+)</artifactId>\\s*<version>([^<]+)</version>")
                .matcher(managed);
        List<String> missing = new java.util.ArrayList<>();
        while (dependency.find()) {
            String group = dependency.group(1);
            boolean fabric8 = dependency.group(3).equals("${fabric8.version}") && bom.contains("<artifactId>kubernetes-client-bom</artifactId>");
            if (BUILD_ONLY.contains(group) || group.equals("dev.metahook") || fabric8) { // metahook's own: the test above
                continue;
            }
            if (!Pattern.compile("<groupId>" + Pattern.quote(group) + "</groupId>\\s*<artifactId>" + Pattern.quote(dependency.group(2))
                    + "</artifactId>").matcher(bom).find()) {
                missing.add(group + ":" + dependency.group(2));
            }
        }
        assertEquals(List.of(), missing, "managed by the parent, not pinned by the BOM");
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
