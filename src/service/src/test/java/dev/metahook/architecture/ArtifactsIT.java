package dev.metahook.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Test;

/**
 * The two artifacts the package phase builds (docs/design.md, "Two artifacts"): the library a user's pom
 * depends on holds no reference controllers, ported examples or command line, and registers its logging
 * configuration for Logback; the service jar holds all of them and starts the command line.
 */
class ArtifactsIT {
    private static final List<String> SERVICE_ONLY = List.of("dev/metahook/cli/", "dev/metahook/controllers/",
            "dev/metahook/examples/");

    @Test
    void theLibraryJarHoldsOnlyTheLibrary() throws IOException {
        try (JarFile jar = new JarFile(library().toFile())) {
            List<String> serviceOnly = jar.stream().map(ZipEntry::getName)
                    .filter(name -> SERVICE_ONLY.stream().anyMatch(name::startsWith)).toList();
            assertEquals(List.of(), serviceOnly, library() + " holds the service's classes");
            assertTrue(jar.getEntry("dev/metahook/Metahook.class") != null, "Metahook.serve is in the library");
            assertTrue(jar.getEntry("dev/metahook/testkit/HookTester.class") != null, "the test kit is in the library");
            assertEquals("dev.metahook.internal.logging.LogConfiguration", configurator(jar));
        }
    }

    @Test
    void theServiceJarHoldsEverythingAndStartsTheCommandLine() throws IOException {
        try (JarFile jar = new JarFile("target/metahook.jar")) {
            assertEquals("dev.metahook.cli.Main", jar.getManifest().getMainAttributes().getValue("Main-Class"));
            for (String name : List.of("dev/metahook/cli/Main.class", "dev/metahook/controllers/webapp/WebAppController.class",
                    "dev/metahook/examples/Examples.class", "dev/metahook/cli/warm-up/webapp-sync.json",
                    "dev/metahook/Metahook.class", "ch/qos/logback/classic/Logger.class")) {
                assertTrue(jar.getEntry(name) != null, "target/metahook.jar holds " + name);
            }
            assertEquals("dev.metahook.internal.logging.LogConfiguration", configurator(jar));
        }
    }

    private static String configurator(JarFile jar) throws IOException {
        ZipEntry services = jar.getEntry("META-INF/services/ch.qos.logback.classic.spi.Configurator");
        assertTrue(services != null, jar.getName() + " registers a Logback configurator");
        return new String(jar.getInputStream(services).readAllBytes(), StandardCharsets.UTF_8).trim();
    }

    /** target/metahook-VERSION.jar: the main artifact, the one {@code mvn install} installs for a user's pom. */
    private static Path library() throws IOException {
        try (var files = Files.list(Path.of("target"))) {
            List<Path> jars = files.filter(file -> file.getFileName().toString().matches("metahook-[0-9][^-]*(-SNAPSHOT)?\\.jar"))
                    .toList();
            assertEquals(1, jars.size(), "one main artifact in target: " + jars);
            return jars.get(0);
        }
    }
}
