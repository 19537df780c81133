package example;

import dev.metahook.Metahook;
import dev.metahook.manifests.ManifestOptions;
import java.nio.file.Path;

/** Writes the kustomize directory that runs the service: {@code GreetingManifests IMAGE [DIRECTORY]} (deploy/ by default). */
public final class GreetingManifests {
    private GreetingManifests() {
    }

    public static void main(String[] args) {
        Path directory = Path.of(args.length > 1 ? args[1] : "deploy");
        Metahook.manifests(GreetingService.controllers(), ManifestOptions.service("greeting", args[0]), directory);
    }
}
