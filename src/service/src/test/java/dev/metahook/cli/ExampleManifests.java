package dev.metahook.cli;

import dev.metahook.api.Controllers;
import dev.metahook.api.Controllers.Kind;
import dev.metahook.api.Controllers.Registration;
import dev.metahook.examples.Examples;
import dev.metahook.manifests.ManifestOptions;
import dev.metahook.manifests.Manifests;
import java.nio.file.Path;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The ported examples' generated files under {@code examples/}: each registration's
 * {@code controller.yaml} (or the name its README uses) and, for a composite, its parent's
 * {@code crd.yaml} beside it. The kustomizations and example objects there are kept by hand.
 */
final class ExampleManifests {
    /** The hook service the examples' manifests point at: the built-in service run with METAHOOK_EXAMPLES=true. */
    static final ManifestOptions SERVICE = ManifestOptions.service("metahook", "ghcr.io/metahook/metahook:0.1.0");
    /** Where each example's registration goes, relative to examples/. */
    static final Map<String, String> FILES = Map.of(
            "bluegreen", "bluegreen/controller.yaml",
            "catset", "catset/controller.yaml",
            "configmappropagation", "configmappropagation/controller.yaml",
            "service-per-pod", "service-per-pod/controller.yaml",
            "pod-name-label", "service-per-pod/pod-name-label-controller.yaml");

    private ExampleManifests() {
    }

    static Controllers controllers() {
        return Examples.addTo(Controllers.builder()).build();
    }

    /** Every generated file, by its path relative to examples/. */
    static SortedMap<String, String> generate() {
        Controllers examples = controllers();
        SortedMap<String, String> files = new TreeMap<>();
        for (String name : examples.names()) {
            String path = FILES.get(name);
            if (path == null) {
                throw new IllegalStateException("example " + name + " has no file under examples/: add it to ExampleManifests.FILES");
            }
            Registration<?> registration = examples.get(name).orElseThrow();
            files.put(path, Manifests.controllerFile(registration, SERVICE));
            if (registration.kind() == Kind.COMPOSITE) {
                files.put(Path.of(path).resolveSibling("crd.yaml").toString(), Manifests.crdFile(registration.type(), true));
            }
        }
        return files;
    }

    /** Writes them under this directory (the repository's examples/), leaving the hand-kept files alone. */
    static SortedMap<String, String> write(Path directory) {
        return Manifests.writeFiles(generate(), directory);
    }
}
