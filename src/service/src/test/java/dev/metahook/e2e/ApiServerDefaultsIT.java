package dev.metahook.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.internal.sim.KubernetesVersion;
import dev.metahook.internal.sim.ObjectStore;
import dev.metahook.internal.sim.StorageChange;
import dev.metahook.internal.wire.Json;
import dev.metahook.testing.Fixtures;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The simulator's store against the real API servers of the suite ({@link Rigs}: the oldest and the newest minor the
 * simulator models), each against the simulated store of its own version: the same objects created in both, what
 * each stores compared field by field. The objects are every child of the captured requests
 * ({@code captured/v1.37.2-stored.json}, as sent) and one of each other built-in kind the simulator defaults. The
 * server's own choices are taken from what it stored (uid, a Service's {@code clusterIP}); system metadata is not
 * compared. Every difference left is one docs/testing-hooks.md lists ("What the simulator stores, against the real
 * API server"): this test fails on a new one and on one that went away. Each {@link StorageChange} is measured
 * too: the real server stores an object its way exactly from the minor the model says.
 */
@ParameterizedClass(name = "Kubernetes {0}")
@MethodSource("dev.metahook.e2e.Rigs#localVersions")
@ExtendWith(Rigs.Resolver.class)
class ApiServerDefaultsIT {
    /** The differences the simulator keeps, as docs/testing-hooks.md lists them: kind, then the JSON pointer. */
    private static final List<String> KNOWN = List.of(
            "Pod /spec/containers/0/volumeMounts", "Pod /spec/enableServiceLinks", "Pod /spec/preemptionPolicy", "Pod /spec/priority",
            "Pod /spec/serviceAccount", "Pod /spec/serviceAccountName", "Pod /spec/tolerations", "Pod /spec/volumes");
    private static final List<String> SYSTEM_METADATA = List.of("uid", "resourceVersion", "creationTimestamp", "generation", "managedFields");

    private static Commands commands;

    @Parameter
    KubernetesVersion version;

    /** The local rig of this version, started for the first test that needs it, shared with the suite's other classes. */
    @BeforeEach
    void onTheRigOfThisVersion(Rigs rigs) throws Exception {
        commands = rigs.local(version).commands();
    }

    @Test
    void theSimulatorStoresWhatTheApiServerStores(@TempDir Path work) throws Exception {
        List<ObjectNode> objects = new ArrayList<>();
        Fixtures.json("captured/v1.37.2-stored.json").forEach(entry -> objects.add(entry.get("sent").deepCopy()));
        for (String other : OTHERS) {
            objects.add((ObjectNode) Json.parse(other.replace('\'', '"').getBytes(StandardCharsets.UTF_8)));
        }
        List<String> differences = new ArrayList<>();
        for (int i = 0; i < objects.size(); i++) {
            ObjectNode sent = objects.get(i);
            String namespace = "defaults-" + i;
            commands.run(Duration.ofMinutes(1), "kubectl", "create", "namespace", namespace);
            // the account a Pod runs as by default, which the rig's controller manager does not create
            commands.run(Duration.ofMinutes(1), "kubectl", "-n", namespace, "create", "serviceaccount", "default");
            sent.withObjectProperty("metadata").put("namespace", namespace);
            ObjectNode real = create(work.resolve(i + ".json"), sent);
            ObjectNode withUid = sent.deepCopy();
            withUid.withObjectProperty("metadata").put("uid", real.at("/metadata/uid").asText());
            ObjectNode simulated = new ObjectStore(Clock.systemUTC(), version).create(withUid);
            for (String field : new String[] {"clusterIP", "clusterIPs"}) {
                if (real.at("/spec/" + field).isValueNode() || real.at("/spec/" + field).isArray()) {
                    simulated.withObjectProperty("spec").set(field, real.at("/spec/" + field));
                }
            }
            for (ObjectNode object : List.of(real, simulated)) {
                SYSTEM_METADATA.forEach(object.withObjectProperty("metadata")::remove);
            }
            differ(real.path("kind").asText(), real, simulated, "", differences);
        }
        assertEquals(KNOWN, differences.stream().map(difference -> difference.substring(0, difference.indexOf(": "))).toList(),
                "what the simulator stores unlike the API server (real vs simulated): " + differences);
    }

    /**
     * Each change the model makes between minors, measured: on this version's API server an object stores the way
     * the change made it exactly when the model says this version has it, and the simulated store of this version
     * stores the same.
     */
    @Test
    void everyStorageChangeHoldsFromTheMinorTheModelSays(@TempDir Path work) throws Exception {
        commands.run(Duration.ofMinutes(1), "kubectl", "create", "namespace", "storage-changes");
        for (StorageChange change : StorageChange.values()) {
            Probe probe = Probe.of(change);
            ObjectNode sent = (ObjectNode) Json.parse(probe.object().replace('\'', '"').getBytes(StandardCharsets.UTF_8));
            sent.withObjectProperty("metadata").put("namespace", "storage-changes").put("name", change.name().toLowerCase().replace('_', '-'));
            ObjectNode real = create(work.resolve(change + ".json"), sent);
            ObjectNode simulated = new ObjectStore(Clock.systemUTC(), version).create(sent);
            JsonNode expected = version.has(change) ? probe.from() : probe.upTo();
            for (String pointer : probe.pointers()) {
                assertEquals(expected, real.at(pointer), change + " at " + pointer + " on Kubernetes " + version + " (the model says "
                        + (version.has(change) ? "it holds" : "it does not hold yet") + "); the server stored "
                        + real.at(pointer.substring(0, pointer.lastIndexOf('/'))));
                assertEquals(real.at(pointer), simulated.at(pointer), change + " at " + pointer + ": the simulated store of " + version);
            }
        }
    }

    /** An object whose stored form shows a {@link StorageChange}: what is at each pointer up to it and from it. */
    private record Probe(String object, List<String> pointers, JsonNode upTo, JsonNode from) {
        /** Every change has one: a change without is a compile error here. */
        static Probe of(StorageChange change) {
            return switch (change) {
                case NO_NULL_CREATION_TIMESTAMP -> new Probe("{'apiVersion':'apps/v1','kind':'StatefulSet','metadata':{'name':'s'},'spec':{"
                        + "'selector':{'matchLabels':{'a':'b'}},'template':{'metadata':{'labels':{'a':'b'}},'spec':{'containers':"
                        + "[{'name':'c','image':'c:1'}]}},'volumeClaimTemplates':[{'metadata':{'name':'data'},'spec':{'accessModes':"
                        + "['ReadWriteOnce'],'resources':{'requests':{'storage':'1Gi'}}}}]}}",
                        List.of("/spec/template/metadata/creationTimestamp", "/spec/volumeClaimTemplates/0/metadata/creationTimestamp"),
                        NullNode.getInstance(), MissingNode.getInstance());
                case STATEFULSET_MAX_UNAVAILABLE -> new Probe("{'apiVersion':'apps/v1','kind':'StatefulSet','metadata':{'name':'s'},'spec':{"
                        + "'selector':{'matchLabels':{'a':'b'}},'template':{'metadata':{'labels':{'a':'b'}},'spec':{'containers':"
                        + "[{'name':'c','image':'c:1'}]}}}}", List.of("/spec/updateStrategy/rollingUpdate/maxUnavailable"),
                        MissingNode.getInstance(), IntNode.valueOf(1));
            };
        }
    }

    /** What the API server stored of an object created from this file. */
    private static ObjectNode create(Path file, ObjectNode sent) throws Exception {
        Files.writeString(file, sent.toPrettyString());
        return (ObjectNode) Json.parse(commands.output(Duration.ofMinutes(1), "kubectl", "create", "-f", file.toString(), "-o", "json")
                .getBytes(StandardCharsets.UTF_8));
    }

    private static void differ(String kind, JsonNode real, JsonNode simulated, String pointer, List<String> out) {
        if (real.isObject() && simulated.isObject()) {
            List<String> names = new ArrayList<>();
            real.fieldNames().forEachRemaining(names::add);
            simulated.fieldNames().forEachRemaining(name -> {
                if (!real.has(name)) {
                    names.add(name);
                }
            });
            for (String name : names) {
                differ(kind, real.path(name), simulated.path(name), pointer + "/" + name, out);
            }
        } else if (real.isArray() && simulated.isArray() && real.size() == simulated.size()) {
            for (int i = 0; i < real.size(); i++) {
                differ(kind, real.get(i), simulated.get(i), pointer + "/" + i, out);
            }
        } else if (!real.equals(simulated)) {
            out.add(kind + " " + pointer + ": " + (real.isMissingNode() ? "nothing" : real) + " vs "
                    + (simulated.isMissingNode() ? "nothing" : simulated));
        }
    }

    /** One of each built-in kind ApiServerDefaults defaults that the captured children do not have. */
    private static final List<String> OTHERS = List.of(
            "{'apiVersion':'v1','kind':'Pod','metadata':{'name':'p'},'spec':{'containers':[{'name':'c','image':'c:1',"
                    + "'ports':[{'containerPort':80}],'livenessProbe':{'tcpSocket':{'port':80}}}]}}",
            "{'apiVersion':'apps/v1','kind':'ReplicaSet','metadata':{'name':'r'},'spec':{'selector':{'matchLabels':{'a':'b'}},"
                    + "'template':{'metadata':{'labels':{'a':'b'}},'spec':{'containers':[{'name':'c','image':'c'}]}}}}",
            "{'apiVersion':'apps/v1','kind':'DaemonSet','metadata':{'name':'d'},'spec':{'selector':{'matchLabels':{'a':'b'}},"
                    + "'template':{'metadata':{'labels':{'a':'b'}},'spec':{'containers':[{'name':'c','image':'c:2'}]}}}}",
            "{'apiVersion':'batch/v1','kind':'CronJob','metadata':{'name':'cj'},'spec':{'schedule':'0 * * * *','jobTemplate':{'spec':{"
                    + "'template':{'spec':{'restartPolicy':'Never','containers':[{'name':'c','image':'c:1'}]}}}}}}",
            "{'apiVersion':'networking.k8s.io/v1','kind':'NetworkPolicy','metadata':{'name':'n'},'spec':{'podSelector':{},"
                    + "'ingress':[{'ports':[{'port':80}]}],'egress':[{}]}}",
            "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'c'},'data':{'a':''}}");
}
