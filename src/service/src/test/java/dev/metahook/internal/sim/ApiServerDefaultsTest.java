package dev.metahook.internal.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.testing.Fixtures;
import dev.metahook.internal.wire.LastAppliedConfiguration;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The simulator stores what a hook sent as a real kube-apiserver v1.20.2 did: every child of the
 * captured requests, created in the store from its last-applied annotation (exactly what was sent),
 * comes back with the spec the real API server stored.
 */
class ApiServerDefaultsTest {
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-30T15:00:00Z"), ZoneOffset.UTC);

    @ParameterizedTest
    @ValueSource(strings = {"captured/v1.5.14-webapp-sync-observed.request.json", "captured/v1.5.14-database-finalize-drain.request.json",
            "captured/v1.5.14-metahook-database-finalize-backingup.request.json"})
    void everyCapturedChildIsStoredAsTheRealApiServerStoredIt(String fixture) {
        List<String> compared = new ArrayList<>();
        Fixtures.json(fixture).path("children").forEach(group -> group.forEach(observed -> {
            ObjectNode sent = LastAppliedConfiguration.of(observed).orElseThrow();
            sent.withObjectProperty("metadata").put("uid", observed.at("/metadata/uid").asText());
            ObjectNode stored = new ObjectStore(CLOCK).create(sent);
            ObjectNode storedSpec = stored.withObjectProperty("spec");
            if (observed.at("/spec/clusterIP").isTextual()) {
                storedSpec.set("clusterIP", observed.at("/spec/clusterIP"));
                storedSpec.set("clusterIPs", observed.at("/spec/clusterIPs"));
            }
            JsonNode expected = observed.has("spec") ? observed.get("spec") : observed.path("data");
            assertEquals(expected, observed.has("spec") ? storedSpec : stored.path("data"), ObjectRef.of(observed) + " in " + fixture);
            assertEquals(observed.path("type"), stored.path("type"), ObjectRef.of(observed) + " type");
            compared.add(ObjectRef.of(observed).toString());
        }));
        assertFalse(compared.isEmpty());
    }

    @ParameterizedTest
    @ValueSource(strings = {"nginx", "nginx:latest", "registry:5000/team/app", "registry:5000/team/app:latest"})
    void imagesWithoutATagOrTaggedLatestArePulledAlways(String image) {
        assertTrue(ApiServerDefaults.pullsAlways(image));
    }

    @ParameterizedTest
    @ValueSource(strings = {"nginx:1.27", "registry:5000/team/app:2", "app@sha256:0123abcd"})
    void imagesWithATagOrDigestAreNot(String image) {
        assertFalse(ApiServerDefaults.pullsAlways(image));
    }
}
