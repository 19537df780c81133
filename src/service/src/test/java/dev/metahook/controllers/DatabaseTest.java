package dev.metahook.controllers;

import static dev.metahook.controllers.ReferenceServer.call;
import static dev.metahook.controllers.ReferenceServer.child;
import static dev.metahook.controllers.ReferenceServer.conditions;
import static dev.metahook.testing.StoredObjects.json;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.testing.Requests;
import dev.metahook.testing.StoredObjects;
import dev.metahook.testing.TestServer;
import dev.metahook.internal.wire.CanonicalJson;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.LoggerFactory;

/** Database through HTTP: each phase, the credentials, the claim template, and every step of its teardown. */
class DatabaseTest {
    private static final String UID = ReferenceServer.DATABASE_UID;
    private static final String FINALIZER = "metacontroller.io/compositecontroller-database-controller";
    private static final String READY = "{'observedGeneration':1,'replicas':1,'readyReplicas':1,'currentReplicas':1,'updatedReplicas':1}";
    @RegisterExtension
    static final TestServer server = TestServer.of(ReferenceServer::controllers);

    private static ObjectNode database() {
        return StoredObjects.parent("examples/database.yaml", UID, 1, FINALIZER);
    }

    private static ObjectNode deleting(ObjectNode database) {
        database.withObjectProperty("metadata").put("deletionTimestamp", "2026-11-29T16:30:00Z").put("deletionGracePeriodSeconds", 0);
        return database;
    }

    private static JsonNode sync(ObjectNode database, List<ObjectNode> observed) {
        return call(server, "/database/sync", request(database, observed, false));
    }

    private static JsonNode finalize(ObjectNode database, List<ObjectNode> observed) {
        return call(server, "/database/finalize", request(database, observed, true));
    }

    private static ObjectNode request(ObjectNode database, List<ObjectNode> observed, boolean finalizing) {
        return StoredObjects.request(StoredObjects.manifest("metacontroller/database-controller.yaml"), database, observed, finalizing);
    }

    /** Every child of a first sync, observed, the StatefulSet with this status. */
    private static List<ObjectNode> running(ObjectNode database, String statefulSetStatus) {
        JsonNode first = sync(database, List.of());
        List<ObjectNode> observed = new ArrayList<>();
        for (JsonNode child : first.get("children")) {
            String status = child.path("kind").asText().equals("StatefulSet") ? statefulSetStatus
                    : child.path("kind").asText().equals("Service") ? "{'loadBalancer':{}}" : null;
            observed.add(StoredObjects.observe(child, database, status == null ? null : json(status)));
        }
        return observed;
    }

    private static ObjectNode find(List<ObjectNode> observed, String kind, String name) {
        return observed.stream().filter(c -> c.path("kind").asText().equals(kind) && c.at("/metadata/name").asText().equals(name))
                .findFirst().orElseThrow();
    }

    private static String decoded(JsonNode secret, String key) {
        return new String(Base64.getDecoder().decode(secret.at("/data/" + key).asText()), StandardCharsets.UTF_8);
    }

    @Test
    void createsItsChildrenAndSaysPending() {
        JsonNode response = sync(database(), List.of());
        assertEquals("Ready=False/Pending Reconciling=True/Pending Stalled=False/Pending", conditions(response));
        assertEquals("Pending", response.at("/status/phase").asText());
        assertEquals("orders.default.svc:5432", response.at("/status/endpoint").asText());
        assertEquals("orders-credentials", response.at("/status/credentialsSecret").asText());
        assertEquals(4, response.get("children").size());
        JsonNode secret = child(response, "Secret", "orders-credentials");
        assertEquals("Opaque", secret.get("type").asText());
        assertEquals("app", decoded(secret, "username"));
        assertTrue(decoded(secret, "password").matches("[A-Za-z0-9_-]{32}"), decoded(secret, "password"));
        assertFalse(secret.has("stringData"));
        assertEquals(json("{'clusterIP':'None','ports':[{'name':'postgres','port':5432,'targetPort':'postgres'}],"
                + "'selector':{'app.kubernetes.io/instance':'orders','app.kubernetes.io/name':'database'},'type':'ClusterIP'}"),
                child(response, "Service", "orders-headless").get("spec"));
        assertFalse(child(response, "Service", "orders").get("spec").has("clusterIP"));
    }

    @Test
    void writesTheClaimTemplateExactlyAsTheApiServerStoresIt() {
        JsonNode statefulSet = child(sync(database(), List.of()), "StatefulSet", "orders");
        assertEquals("{\"apiVersion\":\"v1\",\"kind\":\"PersistentVolumeClaim\",\"metadata\":{\"name\":\"data\"},"
                + "\"spec\":{\"accessModes\":[\"ReadWriteOnce\"],\"resources\":{\"requests\":{\"storage\":\"1Gi\"}},\"volumeMode\":\"Filesystem\"},"
                + "\"status\":{\"phase\":\"Pending\"}}", CanonicalJson.string(statefulSet.at("/spec/volumeClaimTemplates/0")));
        assertEquals("orders-headless", statefulSet.at("/spec/serviceName").asText());
        assertEquals("postgres:16", statefulSet.at("/spec/template/spec/containers/0/image").asText());
        assertEquals(json("{'exec':{'command':['pg_isready','-U','app']}}"), statefulSet.at("/spec/template/spec/containers/0/readinessProbe"));
    }

    /**
     * Kubernetes up to 1.33 stores the claim template's metadata with {@code "creationTimestamp": null}, 1.34 and later
     * without; the request does not say which. The answer takes the observed StatefulSet's form, in sync and teardown.
     */
    @Test
    void writesTheClaimTemplateInTheFormTheObservedStatefulSetStores() {
        ObjectNode database = database();
        List<ObjectNode> observed = running(database, READY);
        String metadata = "/spec/volumeClaimTemplates/0/metadata";
        assertFalse(child(sync(database, observed), "StatefulSet", "orders").at(metadata).has("creationTimestamp"));
        assertFalse(child(finalize(deleting(database()), observed), "StatefulSet", "orders").at(metadata).has("creationTimestamp"));
        ((ObjectNode) find(observed, "StatefulSet", "orders").at(metadata)).putNull("creationTimestamp");
        assertEquals(json("{'creationTimestamp':null,'name':'data'}"), child(sync(database, observed), "StatefulSet", "orders").at(metadata));
        assertEquals(json("{'creationTimestamp':null,'name':'data'}"),
                child(finalize(deleting(database()), observed), "StatefulSet", "orders").at(metadata));
    }

    private static String firstPassword(ObjectNode database) {
        String name = database.at("/metadata/name").asText();
        return decoded(child(sync(database, List.of()), "Secret", name + "-credentials"), "password");
    }

    @Test
    void derivesTheSamePasswordForTheSameDatabaseAndAnotherForAnother() {
        String first = firstPassword(database());
        assertEquals(first, firstPassword(database()));
        ObjectNode elsewhere = database();
        elsewhere.withObjectProperty("metadata").put("namespace", "billing");
        assertNotEquals(first, firstPassword(elsewhere));
        ObjectNode renamed = database();
        renamed.withObjectProperty("metadata").put("name", "invoices");
        assertNotEquals(first, firstPassword(renamed));
        assertNotEquals(firstPassword(elsewhere), firstPassword(renamed));
    }

    /** Deleted and created again: a new uid, the same retained claim data-orders-0, so the password it was initialised with. */
    @Test
    void aRecreatedDatabaseGetsThePasswordItsRetainedVolumeWasInitialisedWith() {
        ObjectNode before = database();
        List<ObjectNode> observed = running(before, READY);
        String initialised = decoded(find(observed, "Secret", "orders-credentials"), "password");
        ObjectNode recreated = database();
        recreated.withObjectProperty("metadata").put("uid", "00000000-1111-4222-8333-444444444444").put("creationTimestamp", "2026-11-29T17:00:00Z");
        assertNotEquals(before.at("/metadata/uid"), recreated.at("/metadata/uid"));
        JsonNode secret = child(sync(recreated, List.of()), "Secret", "orders-credentials");
        assertEquals(initialised, decoded(secret, "password"));
    }

    @Test
    void neverChangesAPasswordOnceTheSecretExists() {
        ObjectNode database = database();
        List<ObjectNode> observed = running(database, "{}");
        ObjectNode secret = find(observed, "Secret", "orders-credentials");
        secret.withObjectProperty("data").put("password", Base64.getEncoder().encodeToString("set-by-someone-else".getBytes()));
        JsonNode response = sync(database, observed);
        assertEquals(secret.get("data"), child(response, "Secret", "orders-credentials").get("data"));
    }

    @Test
    void refusesTheSecretUnderAnotherKeyRatherThanDerivingANewPassword() {
        ObjectNode database = database();
        ObjectNode request = request(database, running(database, "{}"), false);
        ObjectNode secrets = request.withObjectProperty("children").withObjectProperty("Secret.v1");
        secrets.set("other", secrets.remove("orders-credentials"));
        server.post("/database/sync", Requests.bytes(request))
                .statusCode(400)
                .body("pointer", equalTo("/children/Secret.v1/other/metadata/name"));
    }

    @Test
    void neverLogsThePasswordNotEvenAtDebugLevel() {
        Logger calls = (Logger) LoggerFactory.getLogger("metahook.calls");
        ListAppender<ILoggingEvent> appender = new ListAppender<>();
        appender.start();
        Level level = calls.getLevel();
        calls.setLevel(Level.DEBUG);
        calls.addAppender(appender);
        JsonNode secret;
        try {
            ObjectNode database = database();
            List<ObjectNode> observed = running(database, READY);
            ObjectNode observedSecret = find(observed, "Secret", "orders-credentials");
            observedSecret.putObject("stringData").put("extra", "plain-text-secret");
            secret = child(sync(database, observed), "Secret", "orders-credentials");
            assertTrue(observedSecret.at("/metadata/annotations").toString().contains(secret.at("/data/password").asText()),
                    "the observed Secret's last-applied annotation holds the password too");
        } finally {
            calls.detachAppender(appender);
            calls.setLevel(level);
        }
        String password = decoded(secret, "password");
        List<String> logged = appender.list.stream().map(event -> event.getFormattedMessage() + " " + event.getKeyValuePairs()).toList();
        assertTrue(logged.stream().anyMatch(line -> line.contains("hook call bodies") && line.contains("<redacted>")), logged.toString());
        assertTrue(logged.stream().anyMatch(line -> line.contains("orders-credentials")), "the rest of the bodies is logged");
        for (String line : logged) {
            assertFalse(line.contains(password), line);
            assertFalse(line.contains(secret.at("/data/password").asText()), line);
            assertFalse(line.contains("plain-text-secret"), line);
        }
    }

    @Test
    void saysProvisioningUntilThePrimaryIsReady() {
        ObjectNode database = database();
        JsonNode response = sync(database, running(database, "{'observedGeneration':1,'replicas':1}"));
        assertEquals("Ready=False/Provisioning Reconciling=True/Provisioning Stalled=False/Provisioning", conditions(response));
        assertEquals("Provisioning", response.at("/status/phase").asText());
    }

    @Test
    void saysReadyWhenThePrimaryIsReady() {
        ObjectNode database = database();
        JsonNode response = sync(database, running(database, READY));
        assertEquals("Ready=True/PrimaryReady Reconciling=False/PrimaryReady Stalled=False/PrimaryReady", conditions(response));
        assertEquals("Ready", response.at("/status/phase").asText());
    }

    @Test
    void saysDegradedWhenAReadyPrimaryIsNoLongerReady() {
        ObjectNode database = database();
        database.set("status", json("{'phase':'Ready'}"));
        JsonNode response = sync(database, running(database, "{'observedGeneration':1,'replicas':1,'readyReplicas':0}"));
        assertEquals("Ready=False/PrimaryNotReady Reconciling=False/PrimaryNotReady Stalled=False/PrimaryNotReady", conditions(response));
        assertEquals("Degraded", response.at("/status/phase").asText());
        database.set("status", json("{'phase':'Degraded'}"));
        assertEquals("Degraded", sync(database, running(database, "{'observedGeneration':1}")).at("/status/phase").asText());
    }

    @Test
    void isNotReadyWhileTheStatefulSetHasNotSeenItsGeneration() {
        ObjectNode database = database();
        List<ObjectNode> observed = running(database, READY);
        find(observed, "StatefulSet", "orders").withObjectProperty("metadata").put("generation", 2);
        assertEquals("Provisioning", sync(database, observed).at("/status/phase").asText());
    }

    @Test
    void failsAndKeepsChildrenWhenStorageChanges() {
        ObjectNode database = database();
        List<ObjectNode> observed = running(database, READY);
        database.withObjectProperty("spec").put("storage", "2Gi");
        JsonNode response = sync(database, observed);
        assertEquals("Ready=False/InvalidSpec Reconciling=False/InvalidSpec Stalled=True/InvalidSpec", conditions(response));
        assertEquals("Failed", response.at("/status/phase").asText());
        assertEquals("spec.storage: cannot change once the database exists (was 1Gi, now 2Gi); set it back to 1Gi",
                response.at("/status/conditions/2/message").asText());
        assertEquals(WebAppTest.asLastApplied(find(observed, "StatefulSet", "orders")), child(response, "StatefulSet", "orders"));
        assertEquals(4, response.get("children").size());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"1e1000000000", "1e2147483648", "1e-1000000000", "9Ei", "0", "-1Gi", "100000000000000000000"})
    void aStorageNoVolumeCanHaveIsAnInvalidSpecThatKeepsChildren(String storage) {
        ObjectNode database = database();
        List<ObjectNode> observed = running(database, READY);
        database.withObjectProperty("spec").put("storage", storage);
        JsonNode response = sync(database, observed);
        assertEquals("Ready=False/InvalidSpec Reconciling=False/InvalidSpec Stalled=True/InvalidSpec", conditions(response));
        assertEquals("spec.storage: " + storage + " is no size a volume can have: it must be more than 0 and at most 8Ei",
                response.at("/status/conditions/2/message").asText());
        assertEquals(WebAppTest.asLastApplied(find(observed, "StatefulSet", "orders")), child(response, "StatefulSet", "orders"));
        assertEquals(4, response.get("children").size());
        assertEquals("Failed", sync(database, List.of()).at("/status/phase").asText(), "refused before any StatefulSet too");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"my.app", "a23456789012345678901234567890123456789012345678901"})
    void aNameThatMakesAChildNameTheApiServerRefusesStallsWithInvalidSpec(String name) {
        ObjectNode database = database();
        database.withObjectProperty("metadata").put("name", name);
        JsonNode response = sync(database, List.of());
        assertEquals("Ready=False/InvalidSpec Reconciling=False/InvalidSpec Stalled=True/InvalidSpec", conditions(response));
        assertEquals("Failed", response.at("/status/phase").asText());
        assertTrue(response.at("/status/conditions/2/message").asText().startsWith("metadata.name: Database \"" + name + "\" would name a child"),
                response.toString());
        assertTrue(response.at("/status/conditions/2/message").asText().endsWith("recreate the Database under such a name of at most 50 characters"));
        assertEquals(0, response.get("children").size());
        database.withObjectProperty("metadata").put("name", "d".repeat(50));
        assertEquals("Pending", sync(database, List.of()).at("/status/phase").asText(), "50 characters are fine");
    }

    @Test
    void acceptsTheSameStorageWrittenInOtherUnits() {
        ObjectNode database = database();
        List<ObjectNode> observed = running(database, READY);
        database.withObjectProperty("spec").put("storage", "1024Mi");
        assertEquals("Ready", sync(database, observed).at("/status/phase").asText());
    }

    @Test
    void refusesAMajorVersionChangeAndRollsOutAMinorOne() {
        ObjectNode database = database();
        database.withObjectProperty("spec").put("version", "16.2");
        List<ObjectNode> observed = running(database, READY);
        database.withObjectProperty("spec").put("version", "17");
        assertEquals("spec.version: 16 to 17 is a major upgrade, which needs a dump and restore; set it back to 16.2",
                sync(database, observed).at("/status/conditions/2/message").asText());
        database.withObjectProperty("spec").put("version", "16.4");
        JsonNode response = sync(database, observed);
        assertEquals("postgres:16.4", child(response, "StatefulSet", "orders").at("/spec/template/spec/containers/0/image").asText());
    }

    @Test
    void failsOnAVersionThatIsNotOneOrATypeError() {
        ObjectNode database = database();
        database.withObjectProperty("spec").put("version", "latest");
        assertEquals("spec.version: must be a PostgreSQL version such as 16 or 16.4, got \"latest\"",
                sync(database, List.of()).at("/status/conditions/2/message").asText());
        database.withObjectProperty("spec").put("version", 16);
        JsonNode response = sync(database, List.of());
        assertEquals("spec.version: must be a string, got 16", response.at("/status/conditions/2/message").asText());
        assertEquals("Failed", response.at("/status/phase").asText());
    }

    @Test
    void finalizesAtOnceWhenNotBeingDeleted() {
        ObjectNode database = database();
        List<ObjectNode> observed = running(database, READY);
        JsonNode response = finalize(database, observed);
        assertTrue(response.get("finalized").booleanValue());
        assertEquals(4, response.get("children").size(), "nothing is torn down");
        assertEquals("Ready", response.at("/status/phase").asText());
    }

    @Test
    void finalizesAtOnceWithDeletionPolicyDelete() {
        ObjectNode database = deleting(database());
        List<ObjectNode> observed = running(database, READY);
        database.withObjectProperty("spec").put("deletionPolicy", "Delete");
        JsonNode response = finalize(database, observed);
        assertTrue(response.get("finalized").booleanValue());
        assertEquals("Ready=False/Deleting Reconciling=False/Deleted Stalled=False/Deleted", conditions(response));
        assertEquals("Deleting", response.at("/status/phase").asText());
    }

    @Test
    void finalizesAtOnceWhenNothingWasEverStored() {
        JsonNode response = finalize(deleting(database()), List.of());
        assertTrue(response.get("finalized").booleanValue());
    }

    /**
     * A finalize without a StatefulSet whose status says one was observed (it was deleted, or is not
     * observed yet): the data may be on the retained claim, so the backup is written from it.
     */
    @ParameterizedTest
    @ValueSource(strings = {"Provisioning", "Ready", "Degraded", "Failed", "Deleting"})
    void doesNotSkipTheBackupWhenTheStatusSaysAStatefulSetWasObserved(String phase) {
        ObjectNode database = deleting(database());
        List<ObjectNode> observed = withoutStatefulSet(running(database, READY));
        database.set("status", json("{'phase':'" + phase + "'}"));
        JsonNode response = finalize(database, observed);
        assertFalse(response.get("finalized").booleanValue(), response.toString());
        assertEquals("Ready=False/Deleting Reconciling=True/BackingUp Stalled=False/Deleting", conditions(response));
        assertEquals("data-orders-0", child(response, "Job", "orders-final-backup")
                .at("/spec/template/spec/volumes/0/persistentVolumeClaim/claimName").asText());
        assertTrue(response.at("/status/conditions/1/message").asText().startsWith("no StatefulSet orders is observed"));
        assertTrue(response.at("/status/conditions/1/message").asText().contains("set spec.deletionPolicy: Delete"));
    }

    @Test
    void finalizesWithoutAStatefulSetOnceItsBackupSucceeded() {
        ObjectNode database = deleting(database());
        List<ObjectNode> observed = withoutStatefulSet(withBackupJob(database, "{'succeeded':1}"));
        database.set("status", json("{'phase':'Ready'}"));
        JsonNode response = finalize(database, observed);
        assertTrue(response.get("finalized").booleanValue());
        assertEquals("Ready=False/Deleting Reconciling=False/Deleted Stalled=False/Deleted", conditions(response));
    }

    @Test
    void finalizesWithoutAStatefulSetWhenTheStatusNeverRecordedOne() {
        ObjectNode database = deleting(database());
        database.set("status", json("{'phase':'Pending'}"));
        JsonNode response = finalize(database, List.of());
        assertTrue(response.get("finalized").booleanValue());
        assertTrue(response.at("/status/conditions/1/message").asText().contains("nothing was ever stored"));
    }

    @Test
    void aRepeatedFinalizeAfterTheTeardownFinishedFinalizesAgain() {
        ObjectNode database = deleting(database());
        JsonNode done = finalize(database, withBackupJob(database, "{'succeeded':1}"));
        database.set("status", done.get("status"));
        assertTrue(finalize(database, List.of()).get("finalized").booleanValue());
    }

    /** Pending means no StatefulSet was ever observed: the teardown relies on it to skip the backup. */
    @Test
    void aStatefulSetGoneAfterItWasObservedIsNotPendingAgain() {
        ObjectNode database = database();
        database.set("status", json("{'phase':'Ready'}"));
        JsonNode response = sync(database, List.of());
        assertEquals("Provisioning", response.at("/status/phase").asText());
        assertEquals("Ready=False/StatefulSetMissing Reconciling=True/StatefulSetMissing Stalled=False/StatefulSetMissing",
                conditions(response));
        database.set("status", json("{'phase':'Pending'}"));
        assertEquals("Pending", sync(database, List.of()).at("/status/phase").asText());
    }

    /**
     * A stored status that does not fit is never read as none: a finalize would take "no status" for
     * "nothing was ever stored" and skip the backup.
     */
    @Test
    void aStatusThatDoesNotFitStallsTheSyncAndTheFinalize() {
        ObjectNode database = deleting(database());
        List<ObjectNode> observed = withoutStatefulSet(running(database, READY));
        database.set("status", json("{'phase':'Ready','conditions':'all good'}"));
        JsonNode response = finalize(database, observed);
        assertFalse(response.get("finalized").booleanValue(), response.toString());
        assertEquals("Ready=False/InvalidStatus Reconciling=False/InvalidStatus Stalled=True/InvalidStatus", conditions(response));
        assertTrue(response.at("/status/conditions/2/message").asText().startsWith("/status/conditions: must be a list"),
                response.at("/status/conditions/2/message").asText());
        assertEquals(observed.size(), response.get("children").size(), "every child kept");

        ObjectNode running = database();
        running.set("status", json("{'phase':'Ready','conditions':'all good'}"));
        assertEquals("Failed", sync(running, running(running, READY)).at("/status/phase").asText());
    }

    @Test
    void drainsFirst() {
        ObjectNode database = deleting(database());
        List<ObjectNode> observed = running(database, READY);
        JsonNode response = finalize(database, observed);
        assertFalse(response.get("finalized").booleanValue());
        assertEquals(5, response.get("resyncAfterSeconds").intValue());
        assertEquals("Ready=False/Deleting Reconciling=True/Draining Stalled=False/Deleting", conditions(response));
        assertEquals(List.of("orders-credentials", "orders-headless", "orders"), names(response));
        assertEquals(0, child(response, "StatefulSet", "orders").at("/spec/replicas").intValue());
    }

    @Test
    void startsTheFinalBackupOnceDrained() {
        ObjectNode database = deleting(database());
        List<ObjectNode> observed = drained(database);
        JsonNode response = finalize(database, observed);
        assertFalse(response.get("finalized").booleanValue());
        assertEquals("Ready=False/Deleting Reconciling=True/BackingUp Stalled=False/Deleting", conditions(response));
        assertEquals(json("{'apiVersion':'batch/v1','kind':'Job','metadata':{'labels':{'app.kubernetes.io/instance':'orders',"
                + "'app.kubernetes.io/managed-by':'metahook','app.kubernetes.io/name':'database'},'name':'orders-final-backup',"
                + "'namespace':'default'},'spec':{'backoffLimit':2,'template':{'metadata':{'labels':{'app.kubernetes.io/instance':'orders',"
                + "'app.kubernetes.io/name':'database-backup'}},'spec':{'containers':[{'command':['sh','-c',"
                + "'tar -czf /data/final-backup-20261129T163000Z.tar.gz -C /data pgdata'],'image':'postgres:16','name':'backup',"
                + "'volumeMounts':[{'mountPath':'/data','name':'data'}]}],'restartPolicy':'Never','volumes':[{'name':'data',"
                + "'persistentVolumeClaim':{'claimName':'data-orders-0'}}]}}}}"), child(response, "Job", "orders-final-backup"));
    }

    @Test
    void waitsForTheBackupJob() {
        ObjectNode database = deleting(database());
        List<ObjectNode> observed = withBackupJob(database, "{'active':1}");
        JsonNode response = finalize(database, observed);
        assertFalse(response.get("finalized").booleanValue());
        assertEquals("Ready=False/Deleting Reconciling=True/BackingUp Stalled=False/Deleting", conditions(response));
        assertEquals(WebAppTest.asLastApplied(find(observed, "Job", "orders-final-backup")), child(response, "Job", "orders-final-backup"));
    }

    @Test
    void stallsWithAMessageThatSaysWhatToDoWhenTheBackupFails() {
        ObjectNode database = deleting(database());
        List<ObjectNode> observed = withBackupJob(database, "{'failed':3,'conditions':[{'type':'Failed','status':'True','reason':'BackoffLimitExceeded'}]}");
        JsonNode response = finalize(database, observed);
        assertFalse(response.get("finalized").booleanValue());
        assertFalse(response.has("resyncAfterSeconds"), "a person has to act");
        assertEquals("Ready=False/Deleting Reconciling=False/BackupFailed Stalled=True/BackupFailed", conditions(response));
        assertTrue(response.at("/status/conditions/2/message").asText().contains("set spec.deletionPolicy: Delete"));
        child(response, "Job", "orders-final-backup");
    }

    @Test
    void honoursDeletionPolicyDeleteAfterAFailedBackup() {
        ObjectNode database = deleting(database());
        List<ObjectNode> observed = withBackupJob(database, "{'failed':3,'conditions':[{'type':'Failed','status':'True'}]}");
        database.withObjectProperty("spec").put("deletionPolicy", "Delete");
        assertTrue(finalize(database, observed).get("finalized").booleanValue());
    }

    @Test
    void isDoneWhenTheBackupSucceeded() {
        ObjectNode database = deleting(database());
        JsonNode response = finalize(database, withBackupJob(database, "{'succeeded':1}"));
        assertTrue(response.get("finalized").booleanValue());
        assertEquals("Ready=False/Deleting Reconciling=False/Deleted Stalled=False/Deleted", conditions(response));
    }

    @Test
    void anInvalidSpecNeitherBlocksNorAltersTeardown() {
        ObjectNode database = deleting(database());
        List<ObjectNode> observed = running(database, READY);
        database.withObjectProperty("spec").put("storage", "5Gi").put("version", "17").put("deletionPolicy", "Keep");
        JsonNode response = finalize(database, observed);
        assertEquals("Ready=False/Deleting Reconciling=True/Draining Stalled=False/Deleting", conditions(response));
        JsonNode statefulSet = child(response, "StatefulSet", "orders");
        assertEquals("1Gi", statefulSet.at("/spec/volumeClaimTemplates/0/spec/resources/requests/storage").asText());
        assertEquals("postgres:16", statefulSet.at("/spec/template/spec/containers/0/image").asText());
        database.withObjectProperty("spec").put("storage", 5);
        assertEquals("Ready=False/Deleting Reconciling=True/Draining Stalled=False/Deleting", conditions(finalize(database, observed)));
    }

    private static List<ObjectNode> drained(ObjectNode database) {
        List<ObjectNode> observed = new ArrayList<>();
        for (JsonNode child : finalize(database, running(database, READY)).get("children")) {
            boolean statefulSet = child.path("kind").asText().equals("StatefulSet");
            observed.add(StoredObjects.observe(child, database, statefulSet ? json("{'observedGeneration':2,'replicas':0}") : null));
        }
        return observed;
    }

    private static List<ObjectNode> withBackupJob(ObjectNode database, String jobStatus) {
        List<ObjectNode> observed = drained(database);
        JsonNode job = child(finalize(database, observed), "Job", "orders-final-backup");
        observed.add(StoredObjects.observe(job, database, json(jobStatus)));
        return observed;
    }

    private static List<ObjectNode> withoutStatefulSet(List<ObjectNode> observed) {
        List<ObjectNode> rest = new ArrayList<>(observed);
        rest.removeIf(child -> child.path("kind").asText().equals("StatefulSet"));
        return rest;
    }

    private static List<String> names(JsonNode response) {
        List<String> names = new ArrayList<>();
        response.get("children").forEach(child -> names.add(child.at("/metadata/name").asText()));
        return names;
    }
}
