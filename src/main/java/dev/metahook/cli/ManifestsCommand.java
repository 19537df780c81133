package dev.metahook.cli;

import dev.metahook.manifests.ManifestOptions;
import dev.metahook.manifests.Manifests;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * {@code manifests}: writes the kustomize directory that runs the reference controllers (their
 * CompositeControllers, CRDs and the hook service), generated from their registration.
 */
final class ManifestsCommand {
    static final String USAGE = "usage: java -jar metahook.jar manifests --out <directory> [--image <image>] [--namespace <namespace>]";
    /** How metacontroller/ is made; the drift test prints it. */
    static final String REGENERATE = "java -jar target/metahook.jar manifests --out metacontroller";

    /** The Database controller needs a key to exist; writing manifests never derives a password with it. */
    static final byte[] UNUSED_KEY = "manifests are written without deriving any password".getBytes(StandardCharsets.UTF_8);

    private ManifestsCommand() {
    }

    static int run(List<String> args, PrintStream out) {
        Arguments arguments = Arguments.parse(args, Set.of("out", "image", "namespace"), USAGE);
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

    static ManifestOptions options(String image, String namespace) {
        ManifestOptions options = BuiltInControllers.manifestOptions();
        if (image != null) {
            options = options.withImage(image);
        }
        return namespace == null ? options : options.withNamespace(namespace);
    }
}
