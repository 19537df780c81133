package dev.metahook.e2e;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.api.ChildId;
import dev.metahook.internal.sim.Ids;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Where the end-to-end tests run: the local control plane with the simulator playing Metacontroller
 * and the test playing the workloads ({@link LocalRig}), or a cluster with the real Metacontroller,
 * metahook deployed from {@code metacontroller/} and real workloads ({@link ClusterRig}).
 */
interface Rig extends AutoCloseable {
    /** The environment variable naming a kubeconfig: set, the tests run on that cluster ({@link Rigs}). */
    String KUBECONFIG = "METAHOOK_E2E_KUBECONFIG";

    /** A check that the rig runs the controllers towards. */
    @FunctionalInterface
    interface Check {
        boolean holds() throws Exception;
    }

    /** The API server the rig's objects live on, seen through its namespace and kinds. */
    ApiServerCluster cluster();

    /** Commands against the rig's cluster. */
    Commands commands();

    /** The local rig, whose cluster the tests may install anything into; a cluster's installation of metahook stays as it is. */
    default boolean local() {
        return false;
    }

    /** The namespace the rig's objects live in. */
    String namespace();

    /** An example from {@code examples/}, in this rig's namespace, with images this rig can run. */
    ObjectNode example(String file);

    default ChildId create(ObjectNode manifest) {
        return Ids.of(cluster().create(manifest));
    }

    /** Replaces the parent's spec with the manifest's. */
    default void edit(ObjectNode manifest) {
        ObjectNode current = cluster().get(Ids.of(manifest)).orElseThrow();
        current.set("spec", manifest.path("spec").deepCopy());
        cluster().update(current);
    }

    default Optional<ObjectNode> get(ChildId ref) {
        return cluster().get(ref);
    }

    /** The objects whose controller owner reference names this uid. */
    default List<ObjectNode> ownedBy(String uid) {
        return cluster().ownedBy(uid);
    }

    default void delete(ChildId ref) {
        cluster().delete(ref);
    }

    /**
     * Lets the controller of {@code parent} work until the check holds: the local rig syncs to a fixed
     * point (workloads ready or not, as asked) and fails on a hot loop; a cluster is given time.
     */
    void await(String controller, ChildId parent, boolean workloadsReady, String what, Check check) throws Exception;

    /**
     * Every update sent to an existing child of the parent after a call of this hook, in order
     * ({@code apps/v1 StatefulSet default/orders}, marked when the answer did not ask for it); empty
     * when the rig cannot count them (on a cluster, Metacontroller's writes that change nothing leave
     * no trace outside the API server's audit log).
     */
    Optional<List<String>> childUpdates(ChildId parent, String hook);

    /** Every value the parent's status had at this JSON pointer, in order, repeats left out. */
    List<String> seen(ChildId parent, String pointer);

    /** Runs kubectl against this rig's cluster; the exit code. */
    default int kubectl(String... arguments) throws Exception {
        String[] command = new String[arguments.length + 1];
        command[0] = "kubectl";
        System.arraycopy(arguments, 0, command, 1, arguments.length);
        return commands().exitCode(Duration.ofMinutes(1), command);
    }
}
