package dev.metahook.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahook.internal.sim.Discovery;
import dev.metahook.internal.sim.KubernetesVersion;
import dev.metahook.internal.wire.Json;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What the simulated API server serves, against the discovery of the suite's real API servers ({@link Rigs}: the oldest
 * and the newest minor {@code check} models): every resource a real server lists is one {@code check} takes as served
 * (the built-in ones it knows, or one of an API version it cannot judge), so it never reports a served parent,
 * decorator or related resource as {@code unserved}.
 */
@ParameterizedClass(name = "Kubernetes {0}")
@MethodSource("dev.metahook.e2e.Rigs#localVersions")
@ExtendWith(Rigs.Resolver.class)
class DiscoveryIT {
    @Parameter
    KubernetesVersion version;

    @Test
    void everyResourceTheApiServerListsIsOneCheckTakesAsServed(Rigs rigs) throws Exception {
        Commands commands = rigs.local(version).commands();
        List<String> apiVersions = new ArrayList<>(List.of("v1"));
        get(commands, "/apis").path("groups").forEach(group -> group.path("versions")
                .forEach(served -> apiVersions.add(served.path("groupVersion").asText())));
        Discovery discovery = Discovery.of(List.of());
        List<String> listed = new ArrayList<>();
        List<String> missed = new ArrayList<>();
        for (String apiVersion : apiVersions) {
            for (JsonNode resource : get(commands, apiVersion.equals("v1") ? "/api/v1" : "/apis/" + apiVersion).path("resources")) {
                String name = resource.path("name").asText();
                if (!name.contains("/")) {
                    listed.add(apiVersion + " " + name);
                    if (!discovery.mayServe(apiVersion, name)) {
                        missed.add(apiVersion + " " + name);
                    }
                }
            }
        }
        assertTrue(listed.containsAll(List.of("v1 configmaps", "apps/v1 statefulsets", "apiextensions.k8s.io/v1 customresourcedefinitions")),
                listed::toString);
        assertEquals(List.of(), missed, "served by kube-apiserver " + version + ", yet unserved to check");
    }

    private static JsonNode get(Commands commands, String path) throws Exception {
        return Json.parse(commands.output(Duration.ofMinutes(1), "kubectl", "get", "--raw", path).getBytes(StandardCharsets.UTF_8));
    }
}
