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
 * The artifacts the package phase builds, one per audience (docs/public-api.md): each library jar holds its own
 * packages and nothing else (no shaded copy, none of another artifact's), and the service jar the image runs holds
 * the command line, the reference controllers and the examples without the CRD generator or Bouncy Castle, and the
 * OpenTelemetry SDK with the OTLP exporter on the JDK's HTTP client (not OkHttp).
 */
class ArtifactsIT {
    @Test
    void metahookHoldsTheApiTheFacadeAndTheInternalsOfServing() throws IOException {
        List<String> entries = classes("src/metahook", "metahook");
        assertOnlyUnder(entries, "dev/metahook/api/", "dev/metahook/internal/", "dev/metahook/Metahook", "dev/metahook/ServeOptions",
                "dev/metahook/Server");
        assertNone(entries, "dev/metahook/internal/sim/", "dev/metahook/testkit/", "dev/metahook/manifests/");
        try (JarFile jar = new JarFile(jar("src/metahook", "metahook").toFile())) {
            assertEquals("dev.metahook.internal.logging.LogConfiguration", configurator(jar));
        }
    }

    @Test
    void theTestKitHoldsTheKitAndTheSimulator() throws IOException {
        assertOnlyUnder(classes("src/testkit", "metahook-testkit"), "dev/metahook/testkit/", "dev/metahook/internal/sim/");
    }

    @Test
    void theManifestsHoldOnlyTheManifestsAndThePluginOnlyItsGoal() throws IOException {
        assertOnlyUnder(classes("src/manifests", "metahook-manifests"), "dev/metahook/manifests/");
        assertOnlyUnder(classes("src/maven-plugin", "metahook-maven-plugin"), "dev/metahook/maven/");
        try (JarFile plugin = new JarFile(jar("src/maven-plugin", "metahook-maven-plugin").toFile())) {
            String descriptor = new String(plugin.getInputStream(plugin.getEntry("META-INF/maven/plugin.xml")).readAllBytes(),
                    StandardCharsets.UTF_8);
            assertTrue(descriptor.contains("<goalPrefix>metahook</goalPrefix>") && descriptor.contains("<goal>manifests</goal>"), descriptor);
            assertEquals("dev.metahook.maven", plugin.getManifest().getMainAttributes().getValue("Automatic-Module-Name"),
                    "the plugin's module name (ModulePathTest checks the libraries')");
        }
    }

    @Test
    void theServiceJarHoldsTheServiceWithoutTheBuildTimeGenerator() throws IOException {
        try (JarFile jar = new JarFile("target/metahook.jar")) {
            assertEquals("dev.metahook.cli.Main", jar.getManifest().getMainAttributes().getValue("Main-Class"));
            for (String name : List.of("dev/metahook/cli/Main.class", "dev/metahook/controllers/webapp/WebAppController.class",
                    "dev/metahook/examples/Examples.class", "dev/metahook/cli/warm-up/webapp-sync.json",
                    "dev/metahook/Metahook.class", "dev/metahook/internal/sim/Simulator.class", "ch/qos/logback/classic/Logger.class",
                    "io/opentelemetry/sdk/autoconfigure/AutoConfiguredOpenTelemetrySdk.class",
                    "io/opentelemetry/exporter/otlp/http/trace/OtlpHttpSpanExporter.class",
                    "io/opentelemetry/exporter/sender/jdk/internal/JdkHttpSender.class")) {
                assertTrue(jar.getEntry(name) != null, "target/metahook.jar holds " + name);
            }
            List<String> foreign = jar.stream().map(ZipEntry::getName)
                    .filter(name -> name.startsWith("io/fabric8/crdv2/") || name.startsWith("org/bouncycastle/")
                            || name.startsWith("dev/metahook/manifests/") || name.startsWith("org/eclipse/jetty/websocket/")
                            || name.startsWith("io/fabric8/kubernetes/client/") || name.startsWith("okhttp3/"))
                    .limit(5).toList();
            assertEquals(List.of(), foreign, "the service jar carries the CRD generator, the client API, websockets, Bouncy Castle or OkHttp");
            assertEquals("dev.metahook.internal.logging.LogConfiguration", configurator(jar));
        }
    }

    private static void assertOnlyUnder(List<String> classes, String... prefixes) {
        List<String> stray = classes.stream().filter(name -> List.of(prefixes).stream().noneMatch(name::startsWith)).limit(10).toList();
        assertTrue(!classes.isEmpty(), "the jar has classes");
        assertEquals(List.of(), stray, "classes outside " + List.of(prefixes));
    }

    private static void assertNone(List<String> classes, String... prefixes) {
        assertEquals(List.of(), classes.stream().filter(name -> List.of(prefixes).stream().anyMatch(name::startsWith)).limit(10).toList());
    }

    /** The class files (and other entries outside META-INF) of a module's main jar. */
    private static List<String> classes(String module, String artifact) throws IOException {
        try (JarFile jar = new JarFile(jar(module, artifact).toFile())) {
            return jar.stream().map(ZipEntry::getName).filter(name -> !name.startsWith("META-INF/") && !name.endsWith("/")).toList();
        }
    }

    private static String configurator(JarFile jar) throws IOException {
        ZipEntry services = jar.getEntry("META-INF/services/ch.qos.logback.classic.spi.Configurator");
        assertTrue(services != null, jar.getName() + " registers a Logback configurator");
        return new String(jar.getInputStream(services).readAllBytes(), StandardCharsets.UTF_8).trim();
    }

    /** MODULE/target/ARTIFACT-VERSION.jar, the module's main artifact. */
    private static Path jar(String module, String artifact) throws IOException {
        try (var files = Files.list(Path.of(module, "target"))) {
            List<Path> jars = files.filter(file -> file.getFileName().toString().matches(artifact + "-[0-9][^-]*(-SNAPSHOT)?\\.jar")).toList();
            assertEquals(1, jars.size(), "one main artifact in " + module + "/target: " + jars);
            return jars.get(0);
        }
    }
}
