package dev.metahook.internal.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.internal.wire.Json;
import dev.metahook.internal.wire.LastAppliedConfiguration;
import dev.metahook.testing.Fixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Which Kubernetes minors check models, how they split by what their API servers store, and each difference pinned. */
class KubernetesVersionTest {
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-30T15:00:00Z"), ZoneOffset.UTC);

    @Test
    void readsAMinorWrittenAsUsersWriteIt() {
        assertEquals(new KubernetesVersion(32), KubernetesVersion.parse("1.32"));
        assertEquals(new KubernetesVersion(32), KubernetesVersion.parse("v1.32.4"));
        assertEquals("1.32", KubernetesVersion.parse(" 1.32.0 ").toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"1.28", "1.38", "2.1", "1", "latest", "1.32-eks"})
    void refusesWhatIsNoSupportedMinor(String text) {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> KubernetesVersion.parse(text));
        assertTrue(refused.getMessage().contains(text.strip()) || refused.getMessage().contains("1.29 to 1.37"), refused.getMessage());
    }

    @Test
    void theSupportedMinorsSplitWhereTheApiServerStartedToLeaveTheNullOutAndToDefaultMaxUnavailable() {
        assertEquals(List.of(new KubernetesVersion.Span(new KubernetesVersion(29), new KubernetesVersion(33)),
                new KubernetesVersion.Span(new KubernetesVersion(34), new KubernetesVersion(36)),
                new KubernetesVersion.Span(new KubernetesVersion(37), new KubernetesVersion(37))), KubernetesVersion.spans());
        assertEquals(List.of("1.29", "1.36", "1.37"), KubernetesVersion.spans().stream().map(span -> span.checkedOn().toString()).toList());
        assertEquals("1.29-1.33", KubernetesVersion.spans().get(0).toString());
        assertEquals("1.32", KubernetesVersion.Span.of(new KubernetesVersion(32)).toString());
    }

    @Test
    void upTo133AnEmbeddedObjectMetaIsStoredWithANullCreationTimestampAndFrom134Without() {
        assertFalse(new KubernetesVersion(33).has(StorageChange.NO_NULL_CREATION_TIMESTAMP));
        assertTrue(new KubernetesVersion(34).has(StorageChange.NO_NULL_CREATION_TIMESTAMP));
        ObjectNode sent = (ObjectNode) Json.parse("""
                {"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"name":"db","namespace":"default"},
                 "spec":{"serviceName":"db","selector":{"matchLabels":{"app":"db"}},
                  "template":{"metadata":{"labels":{"app":"db"}},"spec":{"containers":[{"name":"db","image":"postgres:16"}]}},
                  "volumeClaimTemplates":[{"metadata":{"name":"data","creationTimestamp":null},"spec":{"accessModes":["ReadWriteOnce"]}}]}}
                """.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        ObjectNode old = new ObjectStore(CLOCK, new KubernetesVersion(33)).create(sent);
        assertTrue(old.at("/spec/template/metadata/creationTimestamp").isNull(), old.toString());
        assertTrue(old.at("/spec/volumeClaimTemplates/0/metadata/creationTimestamp").isNull(), old.toString());
        ObjectNode current = new ObjectStore(CLOCK, new KubernetesVersion(34)).create(sent);
        assertFalse(current.at("/spec/template/metadata").has("creationTimestamp"), current.toString());
        assertFalse(current.at("/spec/volumeClaimTemplates/0/metadata").has("creationTimestamp"), current.toString());
    }

    /** Measured on real v1.29.15 and v1.37.2 API servers (ApiServerDefaultsIT): 1.37 is the first to default it. */
    @Test
    void upTo136AStatefulSetsRollingUpdateHasNoMaxUnavailableAndFrom137One() {
        assertFalse(new KubernetesVersion(36).has(StorageChange.STATEFULSET_MAX_UNAVAILABLE));
        assertTrue(new KubernetesVersion(37).has(StorageChange.STATEFULSET_MAX_UNAVAILABLE));
        ObjectNode sent = (ObjectNode) Json.parse("""
                {"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"name":"db","namespace":"default"},
                 "spec":{"serviceName":"db","selector":{"matchLabels":{"app":"db"}},
                  "template":{"metadata":{"labels":{"app":"db"}},"spec":{"containers":[{"name":"db","image":"postgres:16"}]}}}}
                """.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        ObjectNode old = new ObjectStore(CLOCK, new KubernetesVersion(36)).create(sent);
        assertEquals(Json.parse("{\"partition\":0}".getBytes(java.nio.charset.StandardCharsets.UTF_8)),
                old.at("/spec/updateStrategy/rollingUpdate"), old.toString());
        ObjectNode current = new ObjectStore(CLOCK, new KubernetesVersion(37)).create(sent);
        assertEquals(Json.parse("{\"maxUnavailable\":1,\"partition\":0}".getBytes(java.nio.charset.StandardCharsets.UTF_8)),
                current.at("/spec/updateStrategy/rollingUpdate"), current.toString());
    }

    /**
     * Measured: a real kube-apiserver v1.20.2 (which encodes an embedded ObjectMeta as every minor up to 1.33 does)
     * stored the StatefulSet the captured request observes from what Metacontroller sent (its last-applied annotation);
     * the simulator's older minors store its pod template's and claim template's metadata exactly so.
     */
    @Test
    void theOlderFormIsWhatARealServerBefore134Stored() {
        JsonNode request = Fixtures.json("captured/v1.5.14-database-finalize-drain.request.json");
        JsonNode real = request.at("/children/StatefulSet.apps~1v1/inventory");
        ObjectNode sent = LastAppliedConfiguration.of((ObjectNode) real).orElseThrow();
        ObjectNode stored = new ObjectStore(CLOCK, KubernetesVersion.OLDEST).create(sent);
        assertEquals(real.at("/spec/template/metadata"), stored.at("/spec/template/metadata"));
        assertEquals(real.at("/spec/volumeClaimTemplates/0/metadata"), stored.at("/spec/volumeClaimTemplates/0/metadata"));
    }

    @Test
    void everyStorageChangeIsListedInTheDocsWithItsVersionAndReference() throws Exception {
        String docs = Files.readString(Path.of("docs/testing-hooks.md"));
        for (StorageChange change : StorageChange.values()) {
            String row = docs.lines().filter(line -> line.contains(change.reference())).findFirst().orElse("");
            assertTrue(row.contains("1." + change.since()), change + " is not listed in docs/testing-hooks.md with 1." + change.since() + ": " + row);
        }
    }
}
