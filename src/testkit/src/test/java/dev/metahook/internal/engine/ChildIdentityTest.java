package dev.metahook.internal.engine;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.api.ChildId;
import dev.metahook.api.Result;
import dev.metahook.internal.contract.AnswerRules;
import dev.metahook.internal.sim.Ids;
import dev.metahook.internal.wire.GroupKey;
import dev.metahook.internal.wire.HookVersion;
import dev.metahook.internal.wire.Json;
import dev.metahook.internal.wire.ObjectMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBuilder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * One convention for "no namespace": a cluster-scoped object's id has namespace {@code ""}, whether it comes
 * from a typed object ({@link ChildId#of}), a desired object's JSON ({@link AnswerRules#id}), an observed
 * object of the request (the guards) or the simulator's store ({@link Ids#of}), and it is never the same object
 * as a namespaced one of the same name.
 */
class ChildIdentityTest {
    private static final GroupKey CLUSTER_ROLES = new GroupKey("ClusterRole", "rbac.authorization.k8s.io/v1");
    private static final GroupKey CONFIG_MAPS = new GroupKey("ConfigMap", "v1");
    private static final JsonNode CONTROLLER = json("{\"spec\":{}}");

    private static ObjectNode json(String text) {
        return (ObjectNode) Json.parse(text.getBytes(StandardCharsets.UTF_8));
    }

    private static ObjectNode object(GroupKey key, String namespace, String name) {
        String metadata = namespace == null ? "{\"name\":\"" + name + "\"}" : "{\"namespace\":\"" + namespace + "\",\"name\":\"" + name + "\"}";
        return json("{\"apiVersion\":\"" + key.apiVersion() + "\",\"kind\":\"" + key.kind() + "\",\"metadata\":" + metadata + "}");
    }

    /** Guards of a decorator whose target is in {@code namespace} (null: cluster-scoped) and observes these attachments. */
    private static Guards guards(String namespace, GroupKey key, List<ObjectNode> observed) {
        ObjectNode target = object(new GroupKey("Widget", "metahook.dev/v1"), namespace, "target");
        return new Guards(CONTROLLER, target, ObjectMap.of(observed, List.of(key), HookVersion.V2, namespace != null), ObjectMap.empty(), true);
    }

    @Test
    void aClusterScopedObjectHasTheEmptyNamespaceEverywhere() {
        ChildId expected = new ChildId("rbac.authorization.k8s.io/v1", "ClusterRole", "", "reader");
        ChildId typed = ChildId.of(new ClusterRoleBuilder().withNewMetadata().withName("reader").endMetadata().build());
        ChildId desired = AnswerRules.id(object(CLUSTER_ROLES, null, "reader"), "");

        assertEquals(expected, typed);
        assertEquals(expected, desired);
        assertEquals(expected, Ids.of(object(CLUSTER_ROLES, null, "reader")));
        assertEquals(expected, Ids.of(object(CLUSTER_ROLES, "", "reader")));
        assertEquals(expected, new ChildId("rbac.authorization.k8s.io/v1", "ClusterRole", null, "reader"));
        assertEquals(expected, typed.inNamespace(""));
        assertEquals(expected, typed.inNamespace(null));
        assertEquals("", typed.namespace());
    }

    @Test
    void theGuardsMatchAClusterScopedObservedObjectToItsTypedId() {
        Guards guards = guards(null, CLUSTER_ROLES, List.of(object(CLUSTER_ROLES, null, "reader")));
        ChildId reader = ChildId.of(new ClusterRoleBuilder().withNewMetadata().withName("reader").endMetadata().build());

        assertDoesNotThrow(() -> guards.check(List.of(object(CLUSTER_ROLES, null, "reader")), Result.of()));
        assertDoesNotThrow(() -> guards.check(List.of(), Result.of().deleting(List.of(reader))));
        GuardViolation omitted = assertThrows(GuardViolation.class, () -> guards.check(List.of(), Result.of()));
        assertEquals(List.of("deletes-children: observed attachment ClusterRole.rbac.authorization.k8s.io/v1 reader: is left out of the"
                + " response, so Metacontroller would delete it, but the result does not say it goes (return it, or name it in"
                + " deleting(...) or deletingUnlisted())"), omitted.violations());
    }

    @Test
    void aNamespacedObjectIsNotTheClusterScopedOneOfTheSameName() {
        ChildId namespaced = ChildId.of(new ConfigMapBuilder().withNewMetadata().withNamespace("default").withName("cm").endMetadata().build());
        ChildId unplaced = ChildId.of(new ConfigMapBuilder().withNewMetadata().withName("cm").endMetadata().build());

        assertNotEquals(namespaced, unplaced);
        assertEquals(namespaced, unplaced.inNamespace("default"));
        assertEquals(namespaced, AnswerRules.id(object(CONFIG_MAPS, null, "cm"), "default"));
        assertEquals(namespaced, AnswerRules.id(object(CONFIG_MAPS, "default", "cm"), ""));
        assertEquals(unplaced, AnswerRules.id(object(CONFIG_MAPS, null, "cm"), ""));
        assertEquals(namespaced, Ids.of(object(CONFIG_MAPS, "default", "cm")));
        assertEquals(unplaced, Ids.of(object(CONFIG_MAPS, null, "cm")));
    }

    @Test
    void theSimulatorOrdersAndNamesIdsAsItsStoreAndReportsDo() {
        ChildId clusterScoped = new ChildId("v1", "ConfigMap", "", "cm");
        ChildId namespaced = new ChildId("v1", "ConfigMap", "default", "cm");

        assertTrue(Ids.ORDER.compare(clusterScoped, namespaced) < 0);
        assertTrue(Ids.ORDER.compare(new ChildId("v1", "ConfigMap", "z", "a"), new ChildId("apps/v1", "Deployment", "a", "a")) < 0,
                "kind first");
        assertEquals("ConfigMap cm", Ids.text(clusterScoped));
        assertEquals("ConfigMap default/cm", Ids.text(namespaced));
        assertEquals("ConfigMap.v1 default/cm", namespaced.toString());
    }

    @Test
    void theGuardsPlaceAnUnplacedDeletionInTheParentsNamespaceAndNoOther() {
        Guards guards = guards("default", CONFIG_MAPS, List.of(object(CONFIG_MAPS, "default", "cm")));

        assertDoesNotThrow(() -> guards.check(List.of(), Result.of().deleting(List.of(new ChildId("v1", "ConfigMap", null, "cm")))));
        assertDoesNotThrow(() -> guards.check(List.of(), Result.of().deleting(List.of(new ChildId("v1", "ConfigMap", "default", "cm")))));
        GuardViolation other = assertThrows(GuardViolation.class,
                () -> guards.check(List.of(), Result.of().deleting(List.of(new ChildId("v1", "ConfigMap", "other", "cm")))));
        assertTrue(other.violations().get(0).startsWith("deletes-children: observed attachment ConfigMap.v1 default/cm: is left out"),
                other.violations().toString());
        GuardViolation kept = assertThrows(GuardViolation.class,
                () -> guards.check(List.of(object(CONFIG_MAPS, null, "cm")), Result.of().deleting(List.of(new ChildId("v1", "ConfigMap", "", "cm")))));
        assertEquals(List.of("deletes-kept: observed attachment ConfigMap.v1 default/cm: is both in the response and marked for deletion"),
                kept.violations());
    }
}
