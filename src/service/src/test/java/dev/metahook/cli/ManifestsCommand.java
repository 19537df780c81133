package dev.metahook.cli;

import dev.metahook.manifests.ManifestOptions;
import dev.metahook.manifests.Manifests;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * The manifests of the built-in service and of the ported examples, as the drift tests and {@link #REGENERATE} write
 * them (a test-side tool: the service jar carries no CRD generator). {@code manifests}: writes the kustomize directory that runs the reference controllers (their
 * CompositeControllers, CRDs and the hook service), generated from their registration; with
 * {@code --examples}, the ported examples' registrations and CRDs into the examples' directory.
 */
final class ManifestsCommand {
    static final String USAGE = "usage: java -jar metahook.jar manifests --out <directory> [--image <image>] [--namespace <namespace>]\n"
            + "       java -jar metahook.jar manifests --examples <directory>   (the ported examples' controller.yaml and crd.yaml files,"
            + " into <directory>/<example>/; the repository's is examples)";
    /** How metacontroller/ and the examples' manifests are made again; the drift tests print it. */
    static final String REGENERATE = "mvn -B -q verify -pl src/service -am -Dtest='ManifestsDriftTest,ExampleManifestsDriftTest'"
            + " -Dsurefire.failIfNoSpecifiedTests=false -Dmetahook.regenerate=true";

    /** Whether the drift tests write the committed files instead of comparing them ({@code -Dmetahook.regenerate=true}). */
    static boolean regenerating() {
        return Boolean.getBoolean("metahook.regenerate");
    }

    /** The Database controller needs a key to exist; writing manifests never derives a password with it. */
    static final byte[] UNUSED_KEY = "manifests are written without deriving any password".getBytes(StandardCharsets.UTF_8);

    private ManifestsCommand() {
    }

    static int run(List<String> args, PrintStream out) {
        Arguments arguments = Arguments.parse(args, Set.of("out", "image", "namespace", "examples"), USAGE);
        if (arguments.optional("examples") != null) {
            return examples(arguments, out);
        }
        Path directory = Path.of(arguments.required("out", USAGE));
        ManifestOptions options;
        try {
            options = options(arguments.optional("image"), arguments.optional("namespace"));
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage() + "\n" + USAGE);
        }
        int files = Manifests.write(BuiltInControllers.all(UNUSED_KEY), options, directory).size();
        out.println("manifests: wrote " + files + " files to " + directory + " (kubectl apply -k " + directory + ")");
        return 0;
    }

    private static int examples(Arguments arguments, PrintStream out) {
        for (String other : List.of("out", "image", "namespace")) {
            if (arguments.optional(other) != null) {
                throw new UsageException("--examples writes the examples as committed, for the built-in service; leave out --" + other
                        + "\n" + USAGE);
            }
        }
        Path directory = Path.of(arguments.optional("examples"));
        int files = ExampleManifests.write(directory).size();
        out.println("manifests: wrote " + files + " example files to " + directory);
        return 0;
    }

    static ManifestOptions options(String image, String namespace) {
        ManifestOptions options = manifestOptions();
        if (image != null) {
            options = options.withImage(image);
        }
        return namespace == null ? options : options.withNamespace(namespace);
    }

    /**
     * Where the reference controllers run: the service {@code metahook} in {@code metahook-system},
     * reading the Database key from the Secret {@code metahook-database-key}.
     */
    static ManifestOptions manifestOptions() {
        return ManifestOptions.service("metahook", "ghcr.io/metahook/metahook:0.1.0")
                .withSecretFile("METAHOOK_DATABASE_KEY_FILE", "metahook-database-key", "key");
    }

}
