package dev.metahook.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.internal.sim.ObjectStore;
import dev.metahook.internal.wire.Json;
import dev.metahook.testing.Fixtures;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The simulator's store against the real API server (src/e2e/control-plane, the API server alone): the same
 * objects created in both, what each stores compared field by field. The objects are every child of the
 * captured requests ({@code captured/v1.37.2-stored.json}, as sent) and one of each other built-in kind the
 * simulator defaults. The server's own choices are taken from what it stored (uid, a Service's
 * {@code clusterIP}); system metadata is not compared. Every difference left is one docs/testing-hooks.md
 * lists ("What the simulator stores, against the real API server"): this test fails on a new one and on one
 * that went away.
 */
class ApiServerDefaultsIT {
    /** The differences the simulator keeps, as docs/testing-hooks.md lists them: kind, then the JSON pointer. */
    private static final List<String> KNOWN = List.of(
            "Pod /spec/containers/0/volumeMounts", "Pod /spec/enableServiceLinks", "Pod /spec/preemptionPolicy", "Pod /spec/priority",
            "Pod /spec/serviceAccount", "Pod /spec/serviceAccountName", "Pod /spec/tolerations", "Pod /spec/volumes");
    private static final List<String> SYSTEM_METADATA = List.of("uid", "resourceVersion", "creationTimestamp", "generation", "managedFields");

    private static Path dir;
    private static Commands commands;

    @BeforeAll
    static void start() throws Exception {
        dir = Files.createTempDirectory("metahook-defaults");
        commands = new Commands(dir.resolve("kubeconfig"));
        commands.run(Duration.ofMinutes(20), "bash", "src/e2e/control-plane", "start", dir.toString());
    }

    @AfterAll
    static void stop() throws Exception {
        if (commands != null) {
            commands.run(Duration.ofMinutes(1), "bash", "src/e2e/control-plane", "stop", dir.toString());
        }
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
            Path file = Files.writeString(work.resolve(i + ".json"), sent.toPrettyString());
            ObjectNode real = (ObjectNode) Json.parse(commands.output(Duration.ofMinutes(1), "kubectl", "create", "-f", file.toString(), "-o", "json")
                    .getBytes(StandardCharsets.UTF_8));
            ObjectNode withUid = sent.deepCopy();
            withUid.withObjectProperty("metadata").put("uid", real.at("/metadata/uid").asText());
            ObjectNode simulated = new ObjectStore(Clock.systemUTC()).create(withUid);
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
