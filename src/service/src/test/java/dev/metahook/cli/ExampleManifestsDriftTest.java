package dev.metahook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ported examples' registrations and CRDs under {@code examples/} are what
 * {@code dev.metahook.examples.Examples} declares and the parent types' annotations say, byte for byte,
 * and {@link ManifestsCommand#REGENERATE} writes them again. The other files there
 * (kustomizations, example objects) are kept by hand.
 */
class ExampleManifestsDriftTest {
    private static final Path EXAMPLES = Path.of("examples");
    private static final String HOW = "examples/*/controller.yaml and crd.yaml are generated from the registration in"
            + " dev.metahook.examples.Examples and the annotations on the parent types; regenerate them with\n"
            + "  " + ManifestsCommand.REGENERATE + "\n";

    @Test
    void theCommittedRegistrationsAreWhatTheJavaGenerates() throws IOException {
        if (ManifestsCommand.regenerating()) {
            ExampleManifests.write(EXAMPLES);
        }
        for (var file : ExampleManifests.generate().entrySet()) {
            Path committed = EXAMPLES.resolve(file.getKey());
            assertTrue(Files.exists(committed), HOW + "(" + committed + " is missing)");
            assertEquals(file.getValue(), Files.readString(committed), HOW + "(" + committed + " differs)");
        }
    }

    /** The documented command writes exactly the committed files, and only those. */
    @Test
    void theCommandWritesTheCommittedFiles(@TempDir Path out) throws IOException {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        int code = ManifestsCommand.run(List.of("--examples", out.toString()), new PrintStream(printed, true, StandardCharsets.UTF_8));
        assertEquals(0, code);
        assertEquals("manifests: wrote 8 example files to " + out + "\n", printed.toString(StandardCharsets.UTF_8));
        TreeMap<String, String> written = new TreeMap<>();
        try (Stream<Path> files = Files.walk(out)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                written.put(out.relativize(file).toString(), Files.readString(file));
            }
        }
        TreeMap<String, String> committed = new TreeMap<>();
        for (String path : written.keySet()) {
            committed.put(path, Files.readString(EXAMPLES.resolve(path)));
        }
        assertEquals(committed, written, HOW);
        assertEquals(ExampleManifests.generate(), written);
    }

    @Test
    void examplesTakeNoImageNamespaceOrOut(@TempDir Path out) {
        PrintStream sink = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        for (String other : List.of("--image", "--namespace", "--out")) {
            UsageException refused = assertThrows(UsageException.class,
                    () -> ManifestsCommand.run(List.of("--examples", out.toString(), other, "x"), sink));
            assertTrue(refused.getMessage().startsWith("--examples writes the examples as committed, for the built-in service; leave out "
                    + other), refused.getMessage());
        }
    }

    /** The examples' composites have parents of their own making; a decorator's target is the cluster's type. */
    @Test
    void eachCustomParentHasItsGeneratedCrd() {
        assertEquals(List.of("bluegreen/crd.yaml", "catset/crd.yaml", "configmappropagation/crd.yaml"),
                ExampleManifests.generate().keySet().stream().filter(file -> file.endsWith("crd.yaml")).toList());
    }

    /** Every object of a kind must have a spec where the original example's CRD says so. */
    @Test
    void theConfigMapPropagationCrdRequiresASpec() throws IOException {
        JsonNode crd = new YAMLMapper().readTree(ExampleManifests.generate().get("configmappropagation/crd.yaml"));
        JsonNode schema = crd.at("/spec/versions/0/schema/openAPIV3Schema");
        assertEquals("[\"spec\"]", schema.path("required").toString());
        assertEquals("[\"sourceName\",\"sourceNamespace\"]", schema.at("/properties/spec/required").toString());
    }

    /** A registration or CRD written by hand beside the generated ones would drift unseen. */
    @Test
    void everyRegistrationAndCrdUnderTheExamplesIsGenerated() throws IOException {
        TreeSet<String> committed = new TreeSet<>();
        for (String directory : List.of("bluegreen", "catset", "configmappropagation", "service-per-pod")) {
            try (Stream<Path> files = Files.list(EXAMPLES.resolve(directory))) {
                files.map(f -> EXAMPLES.relativize(f).toString()).filter(f -> f.endsWith("controller.yaml") || f.endsWith("crd.yaml"))
                        .forEach(committed::add);
            }
        }
        assertEquals(ExampleManifests.generate().keySet(), committed, HOW);
    }

    @Test
    void everyExampleHasItsFile() {
        assertEquals(new TreeSet<>(ExampleManifests.FILES.keySet()), new TreeSet<>(ExampleManifests.controllers().names()));
    }

    @Test
    void generatingTwiceGivesTheSameBytes() {
        assertEquals(ExampleManifests.generate(), ExampleManifests.generate());
    }
}
