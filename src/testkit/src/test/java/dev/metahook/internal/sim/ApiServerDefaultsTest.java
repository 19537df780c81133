package dev.metahook.internal.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.testing.Fixtures;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The simulator stores what a hook sent as a current kube-apiserver (v1.37.2) does: every child of the
 * captured requests, as sent (its last-applied annotation), was created on the real v1.37.2 server and
 * read back ({@code captured/v1.37.2-stored.json}); created in the simulator's store it comes back with
 * the same spec, data and type. The server's own choices are taken from what it stored: a Service's
 * {@code clusterIP}, a Job's uid (its selector names it).
 */
class ApiServerDefaultsTest {
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-30T15:00:00Z"), ZoneOffset.UTC);

    @Test
    void everyCapturedChildIsStoredAsTheCurrentApiServerStoresIt() {
        List<String> compared = new ArrayList<>();
        for (JsonNode entry : Fixtures.json("captured/v1.37.2-stored.json")) {
            ObjectNode sent = entry.get("sent").deepCopy();
            JsonNode real = entry.get("stored");
            sent.withObjectProperty("metadata").put("uid", real.at("/metadata/uid").asText());
            ObjectNode stored = new ObjectStore(CLOCK).create(sent);
            ObjectNode storedSpec = real.has("spec") ? stored.withObjectProperty("spec") : null;
            for (String field : new String[] {"clusterIP", "clusterIPs"}) {
                if (storedSpec != null && real.at("/spec/" + field).isContainerNode() || real.at("/spec/" + field).isTextual()) {
                    storedSpec.set(field, real.at("/spec/" + field));
                }
            }
            String what = Ids.text(Ids.of(real)) + " of " + entry.path("source").asText();
            assertEquals(real.path("spec"), storedSpec == null ? stored.path("spec") : storedSpec, what);
            assertEquals(real.path("data"), stored.path("data"), what + " data");
            assertEquals(real.path("type"), stored.path("type"), what + " type");
            compared.add(what);
        }
        assertEquals(10, compared.size(), compared.toString());
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
