package dev.metahook.controllers;

import static dev.metahook.controllers.ReferenceServer.call;
import static dev.metahook.controllers.ReferenceServer.child;
import static dev.metahook.controllers.ReferenceServer.conditions;
import static dev.metahook.testing.StoredObjects.json;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.metahook.testing.StoredObjects;
import dev.metahook.testing.TestServer;
import dev.metahook.internal.wire.CanonicalJson;
import dev.metahook.internal.wire.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The request bodies in {@code examples/requests/}: built here the way Metacontroller would send them
 * for the example resources, checked to be what is on disk, and answered as docs/reference-controllers.md says.
 * Run with {@code -Dexamples.write=true} to write them again after a change.
 */
class ExamplesTest {
    private static final Path DIR = Path.of("examples/requests");
    @RegisterExtension
    static final TestServer server = TestServer.of(ReferenceServer::controllers);

    @Test
    void requestBodiesOnDiskAreTheOnesMetacontrollerWouldSend() throws IOException {
        Map<String, ObjectNode> examples = build();
        boolean write = Boolean.getBoolean("examples.write");
        if (write) {
            Files.createDirectories(DIR);
        }
        for (var example : examples.entrySet()) {
            String text = Json.mapper().writerWithDefaultPrettyPrinter()
                    .writeValueAsString(Json.parse(CanonicalJson.bytes(example.getValue()))) + "\n";
            Path file = DIR.resolve(example.getKey() + ".json");
            if (write) {
                Files.writeString(file, text, StandardCharsets.UTF_8);
            }
            assertEquals(text, Files.readString(file, StandardCharsets.UTF_8), file + " is stale: run with -Dexamples.write=true");
        }
        String observed = observedYaml(examples.get("webapp-sync"));
        Path file = Path.of("examples/webapp-observed.yaml");
        if (write) {
            Files.writeString(file, observed, StandardCharsets.UTF_8);
        }
        assertEquals(observed, Files.readString(file, StandardCharsets.UTF_8), file + " is stale: run with -Dexamples.write=true");
    }

    /** The WebApp's observed children as {@code kubectl get -o yaml} would list them, for {@code render --observed}. */
    private static String observedYaml(ObjectNode request) throws IOException {
        YAMLMapper yaml = YAMLMapper.builder()
                .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
                .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS).build();
        StringBuilder out = new StringBuilder("# The children Metacontroller observes for examples/webapp.yaml (see requests/webapp-sync.json).\n");
        for (JsonNode group : request.get("children")) {
            for (JsonNode child : group) {
                out.append(yaml.writeValueAsString(Json.parse(CanonicalJson.bytes(child))));
            }
        }
        return out.toString();
    }

    @Test
    void eachExampleGetsTheAnswerTheReadmeDescribes() {
        Map<String, ObjectNode> examples = build();
        assertEquals("Ready=False/RollingOut Reconciling=True/RollingOut Stalled=False/RollingOut",
                conditions(call(server, "/webapp/sync", examples.get("webapp-sync"))));
        assertEquals("Ready=True/PrimaryReady Reconciling=False/PrimaryReady Stalled=False/PrimaryReady",
                conditions(call(server, "/database/sync", examples.get("database-sync"))));
        assertEquals("Reconciling=True/Draining", conditions(call(server, "/database/finalize", examples.get("database-finalize-drain"))).split(" ")[1]);
        assertEquals("Reconciling=True/BackingUp", conditions(call(server, "/database/finalize", examples.get("database-finalize-backup"))).split(" ")[1]);
        assertEquals("Reconciling=False/BackupFailed",
                conditions(call(server, "/database/finalize", examples.get("database-finalize-backup-failed"))).split(" ")[1]);
        assertEquals(true, call(server, "/database/finalize", examples.get("database-finalize-done")).get("finalized").booleanValue());
    }

    static Map<String, ObjectNode> build() {
        Map<String, ObjectNode> examples = new LinkedHashMap<>();
        ObjectNode webApp = StoredObjects.parent("examples/webapp.yaml", ReferenceServer.WEBAPP_UID, 2, null);
        ObjectNode webAppController = StoredObjects.manifest("metacontroller/webapp-controller.yaml");
        JsonNode first = call(server, "/webapp/sync", StoredObjects.request(webAppController, webApp, List.of(), false));
        List<ObjectNode> observed = List.of(
                StoredObjects.observe(child(first, "Deployment", "hello"), webApp,
                        json("{'observedGeneration':1,'replicas':3,'updatedReplicas':1,'readyReplicas':2,'availableReplicas':2}")),
                StoredObjects.observe(child(first, "Service", "hello"), webApp, json("{'loadBalancer':{}}")));
        examples.put("webapp-sync", StoredObjects.request(webAppController, webApp, observed, false));

        ObjectNode controller = StoredObjects.manifest("metacontroller/database-controller.yaml");
        ObjectNode database = StoredObjects.parent("examples/database.yaml", ReferenceServer.DATABASE_UID, 1,
                "metacontroller.io/compositecontroller-database-controller");
        database.set("status", json("{'phase':'Provisioning','observedGeneration':1}"));
        List<ObjectNode> running = observeAll(call(server, "/database/sync", StoredObjects.request(controller, database, List.of(), false)),
                database, "{'observedGeneration':1,'replicas':1,'readyReplicas':1,'currentReplicas':1,'updatedReplicas':1}");
        examples.put("database-sync", StoredObjects.request(controller, database, running, false));

        ObjectNode deleting = database.deepCopy();
        deleting.withObjectProperty("metadata").put("deletionTimestamp", "2026-11-29T16:30:00Z").put("deletionGracePeriodSeconds", 0);
        examples.put("database-finalize-drain", StoredObjects.request(controller, deleting, running, true));
        List<ObjectNode> drained = observeAll(call(server, "/database/finalize", StoredObjects.request(controller, deleting, running, true)),
                deleting, "{'observedGeneration':2,'replicas':0}");
        examples.put("database-finalize-backup", StoredObjects.request(controller, deleting, drained, true));
        JsonNode job = child(call(server, "/database/finalize", StoredObjects.request(controller, deleting, drained, true)), "Job", "orders-final-backup");
        examples.put("database-finalize-backup-failed", StoredObjects.request(controller, deleting, with(drained, StoredObjects.observe(job, deleting,
                json("{'failed':3,'conditions':[{'type':'Failed','status':'True','reason':'BackoffLimitExceeded',"
                        + "'message':'Job has reached the specified backoff limit'}]}"))), true));
        examples.put("database-finalize-done", StoredObjects.request(controller, deleting, with(drained, StoredObjects.observe(job, deleting,
                json("{'succeeded':1,'conditions':[{'type':'Complete','status':'True'}]}"))), true));
        return examples;
    }

    private static List<ObjectNode> observeAll(JsonNode response, ObjectNode parent, String statefulSetStatus) {
        List<ObjectNode> observed = new ArrayList<>();
        for (JsonNode child : response.get("children")) {
            String kind = child.path("kind").asText();
            JsonNode status = kind.equals("StatefulSet") ? json(statefulSetStatus) : kind.equals("Service") ? json("{'loadBalancer':{}}") : null;
            observed.add(StoredObjects.observe(child, parent, status));
        }
        return observed;
    }

    private static List<ObjectNode> with(List<ObjectNode> observed, ObjectNode more) {
        List<ObjectNode> all = new ArrayList<>(observed);
        all.add(more);
        return all;
    }
}
