package dev.metahook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.metahook.manifests.Manifests;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** metacontroller/ is what the reference controllers' registration generates, byte for byte. */
class ManifestsDriftTest {
    private static final String HOW = "metacontroller/ is generated from the registration in cli/BuiltInControllers and the"
            + " annotations on WebApp and Database; regenerate it with\n  " + ManifestsCommand.REGENERATE + "\n";

    private static SortedMap<String, String> generated() {
        return Manifests.generate(BuiltInControllers.all(ManifestsCommand.UNUSED_KEY), ManifestsCommand.manifestOptions());
    }

    @Test
    void theCommittedManifestsAreWhatTheJavaGenerates() throws IOException {
        if (ManifestsCommand.regenerating()) {
            ManifestsCommand.run(List.of("--out", "metacontroller"), System.out);
        }
        for (var file : generated().entrySet()) {
            Path committed = Path.of("metacontroller").resolve(file.getKey());
            assertTrue(Files.exists(committed), HOW + "(" + committed + " is missing)");
            assertEquals(file.getValue(), Files.readString(committed), HOW + "(" + committed + " differs)");
        }
    }

    /** Every resource the kustomization lists is generated; only an optional component may be written by hand. */
    @Test
    void everyFileUnderMetacontrollerIsGenerated() throws IOException {
        TreeSet<String> committed = new TreeSet<>();
        try (Stream<Path> files = Files.walk(Path.of("metacontroller"))) {
            files.filter(Files::isRegularFile).map(f -> Path.of("metacontroller").relativize(f).toString())
                    .filter(f -> !f.startsWith("components/") || generated().containsKey(f)).forEach(committed::add);
        }
        assertEquals(generated().keySet(), committed, HOW + "(a file nothing generates would drift unseen)");
    }

    @Test
    void generatingTwiceGivesTheSameBytes() {
        assertEquals(generated(), generated());
    }

    @Test
    void theCommandWritesTheDirectoryForAnotherImageAndNamespace(@TempDir Path out) throws IOException {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        int code = ManifestsCommand.run(List.of("--out", out.toString(), "--image", "registry.example.com/team/metahook:1.2",
                "--namespace", "hooks"), new PrintStream(printed, true, StandardCharsets.UTF_8));
        assertEquals(0, code);
        assertTrue(printed.toString(StandardCharsets.UTF_8).startsWith("manifests: wrote 32 files to " + out), printed.toString());
        YAMLMapper yaml = new YAMLMapper();
        List<JsonNode> service = yaml.readerFor(JsonNode.class).<JsonNode>readValues(out.resolve("hook-service.yaml").toFile()).readAll();
        JsonNode deployment = service.stream().filter(d -> d.path("kind").asText().equals("Deployment")).findFirst().orElseThrow();
        assertEquals("registry.example.com/team/metahook:1.2", deployment.at("/spec/template/spec/containers/0/image").asText());
        assertEquals("hooks", deployment.at("/metadata/namespace").asText());
        JsonNode database = yaml.readTree(out.resolve("database-controller.yaml").toFile());
        assertEquals("http://metahook.hooks/database/finalize", database.at("/spec/hooks/finalize/webhook/url").asText());
        assertEquals("hooks", database.at("/spec/endpointConfigs/0/authorization/secretRef/namespace").asText());
        assertEquals("hooks", yaml.readTree(out.resolve("namespace.yaml").toFile()).at("/metadata/name").asText());
    }

    @Test
    void helpPrintsTheUsageAndExitsZero() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream saved = System.out;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        int exit;
        try {
            exit = Main.exitCode(() -> ManifestsCommand.run(List.of("--help"), saved));
        } finally {
            System.setOut(saved);
        }
        assertEquals(0, exit);
        assertTrue(out.toString(StandardCharsets.UTF_8).startsWith(ManifestsCommand.USAGE), out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aBadOptionIsAUsageErrorNamingIt(@TempDir Path out) {
        PrintStream sink = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        UsageException namespace = assertThrows(UsageException.class,
                () -> ManifestsCommand.run(List.of("--out", out.toString(), "--namespace", "Hooks_1"), sink));
        assertTrue(namespace.getMessage().startsWith("'Hooks_1' is not a DNS label"), namespace.getMessage());
        UsageException missing = assertThrows(UsageException.class, () -> ManifestsCommand.run(List.of("--image", "x"), sink));
        assertTrue(missing.getMessage().startsWith("--out is required"), missing.getMessage());
        UsageException image = assertThrows(UsageException.class,
                () -> ManifestsCommand.run(List.of("--out", out.toString(), "--image", "a b"), sink));
        assertTrue(image.getMessage().contains("image"), image.getMessage());
    }
}
