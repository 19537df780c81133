package dev.metahook.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.metahook.api.Controllers;
import dev.metahook.api.Controllers.Kind;
import dev.metahook.api.Controllers.Registration;
import dev.metahook.manifests.ManifestOptions;
import dev.metahook.manifests.Manifests;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The ported examples' registrations and CRDs under {@code examples/} are what {@link Examples} declares
 * and the parent types' annotations say, byte for byte. The other files there (kustomizations, example
 * objects) are kept by hand. Run with {@code -Dmetahook.regenerate=true} to write the files instead of
 * comparing.
 */
class ExampleManifestsDriftTest {
    private static final Controllers EXAMPLES = Examples.addTo(Controllers.builder()).build();
    /** The hook service the examples' manifests point at: the built-in service run with METAHOOK_EXAMPLES=true. */
    private static final ManifestOptions SERVICE = ManifestOptions.service("metahook", "ghcr.io/metahook/metahook:0.1.0");
    private static final Map<String, String> FILES = Map.of(
            "bluegreen", "examples/bluegreen/controller.yaml",
            "catset", "examples/catset/controller.yaml",
            "configmappropagation", "examples/configmappropagation/controller.yaml",
            "service-per-pod", "examples/service-per-pod/controller.yaml",
            "pod-name-label", "examples/service-per-pod/pod-name-label-controller.yaml");
    private static final String HOW = "examples/*/controller.yaml and crd.yaml are generated from the registration in"
            + " dev.metahook.examples.Examples and the annotations on the parent types; regenerate them with\n  mvn -o -q -B test -Dtest=ExampleManifestsDriftTest"
            + " -Dmetahook.regenerate=true\n";

    static SortedMap<String, String> generated() {
        SortedMap<String, String> files = new TreeMap<>();
        for (String name : EXAMPLES.names()) {
            String path = FILES.get(name);
            if (path == null) {
                throw new AssertionError("example " + name + " has no file under examples/: add it to FILES");
            }
            Registration registration = EXAMPLES.get(name).orElseThrow();
            files.put(path, Manifests.controllerFile(registration, SERVICE));
            if (registration.kind() == Kind.COMPOSITE) {
                files.put(Path.of(path).resolveSibling("crd.yaml").toString(), Manifests.crdFile(registration.type(), true));
            }
        }
        return files;
    }

    @Test
    void theCommittedRegistrationsAreWhatTheJavaGenerates() throws IOException {
        boolean regenerate = Boolean.getBoolean("metahook.regenerate");
        for (var file : generated().entrySet()) {
            Path committed = Path.of(file.getKey());
            if (regenerate) {
                Files.writeString(committed, file.getValue());
            }
            assertTrue(Files.exists(committed), HOW + "(" + committed + " is missing)");
            assertEquals(file.getValue(), Files.readString(committed), HOW + "(" + committed + " differs)");
        }
    }

    /** The examples' composites have parents of their own making; a decorator's target is the cluster's type. */
    @Test
    void eachCustomParentHasItsGeneratedCrd() {
        assertEquals(java.util.List.of("examples/bluegreen/crd.yaml", "examples/catset/crd.yaml", "examples/configmappropagation/crd.yaml"),
                generated().keySet().stream().filter(file -> file.endsWith("crd.yaml")).toList());
    }

    /** A registration or CRD written by hand beside the generated ones would drift unseen. */
    @Test
    void everyRegistrationAndCrdUnderTheExamplesIsGenerated() throws IOException {
        java.util.TreeSet<String> committed = new java.util.TreeSet<>();
        for (String directory : java.util.List.of("bluegreen", "catset", "configmappropagation", "service-per-pod")) {
            try (java.util.stream.Stream<Path> files = Files.list(Path.of("examples", directory))) {
                files.map(Path::toString).filter(f -> f.endsWith("controller.yaml") || f.endsWith("crd.yaml")).forEach(committed::add);
            }
        }
        assertEquals(generated().keySet(), committed, HOW);
    }

    @Test
    void everyExampleHasItsFile() {
        assertEquals(new TreeMap<>(FILES).keySet(), new java.util.TreeSet<>(EXAMPLES.names()));
    }

    @Test
    void generatingTwiceGivesTheSameBytes() {
        assertEquals(generated(), generated());
    }
}
