package dev.metahook.controllers;

import static dev.metahook.controllers.ReferenceServer.call;
import static dev.metahook.controllers.ReferenceServer.child;
import static dev.metahook.controllers.ReferenceServer.conditions;
import static dev.metahook.testing.Cluster.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.testing.Cluster;
import dev.metahook.testing.TestServer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** WebApp through HTTP: each row of its conditions table, its children, and what an invalid spec keeps. */
class WebAppTest {
    private static final String UID = ReferenceServer.WEBAPP_UID;
    private static TestServer server;

    @BeforeAll
    static void start() {
        server = ReferenceServer.start();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static ObjectNode webApp() {
        return Cluster.parent("examples/webapp.yaml", UID, 1, null);
    }

    private static JsonNode sync(ObjectNode webApp, List<ObjectNode> observed) {
        return call(server, "/webapp/sync", Cluster.request(Cluster.manifest("metacontroller/webapp-controller.yaml"), webApp, observed, false));
    }

    /** The children of a first sync, observed with the given Deployment status. */
    private static List<ObjectNode> running(ObjectNode webApp, String deploymentStatus) {
        JsonNode first = sync(webApp, List.of());
        List<ObjectNode> observed = new ArrayList<>();
        observed.add(Cluster.observe(child(first, "Deployment", "hello"), webApp, json(deploymentStatus)));
        observed.add(Cluster.observe(child(first, "Service", "hello"), webApp, json("{'loadBalancer':{}}")));
        return observed;
    }

    @Test
    void createsADeploymentAndAServiceAndSaysCreating() {
        JsonNode response = sync(webApp(), List.of());
        assertEquals("Ready=False/Creating Reconciling=True/Creating Stalled=False/Creating", conditions(response));
        assertEquals(json("{'apiVersion':'apps/v1','kind':'Deployment','metadata':{'labels':{'app.kubernetes.io/instance':'hello',"
                + "'app.kubernetes.io/managed-by':'metahook','app.kubernetes.io/name':'webapp'},'name':'hello','namespace':'default'},"
                + "'spec':{'replicas':2,'selector':{'matchLabels':{'app.kubernetes.io/instance':'hello','app.kubernetes.io/name':'webapp'}},"
                + "'template':{'metadata':{'labels':{'app.kubernetes.io/instance':'hello','app.kubernetes.io/name':'webapp'}},"
                + "'spec':{'containers':[{'env':[{'name':'GREETING','value':'hi'}],'image':'ghcr.io/example/hello:1.4.2','name':'app',"
                + "'ports':[{'containerPort':8080,'name':'http'}],'readinessProbe':{'tcpSocket':{'port':'http'}}}]}}}}"),
                child(response, "Deployment", "hello"));
        assertEquals(json("{'apiVersion':'v1','kind':'Service','metadata':{'labels':{'app.kubernetes.io/instance':'hello',"
                + "'app.kubernetes.io/managed-by':'metahook','app.kubernetes.io/name':'webapp'},'name':'hello','namespace':'default'},"
                + "'spec':{'ports':[{'name':'http','port':8080,'targetPort':'http'}],'selector':{'app.kubernetes.io/instance':'hello',"
                + "'app.kubernetes.io/name':'webapp'},'type':'ClusterIP'}}"), child(response, "Service", "hello"));
        assertEquals("http://hello.default.svc:8080", response.at("/status/url").asText());
        assertEquals(0, response.at("/status/availableReplicas").intValue());
    }

    @Test
    void saysRollingOutWhileReplicasAreMissing() {
        ObjectNode webApp = webApp();
        JsonNode response = sync(webApp, running(webApp,
                "{'observedGeneration':1,'replicas':2,'updatedReplicas':2,'readyReplicas':1,'availableReplicas':1}"));
        assertEquals("Ready=False/RollingOut Reconciling=True/RollingOut Stalled=False/RollingOut", conditions(response));
        assertEquals("1/2 replicas available, 2/2 updated", response.at("/status/conditions/0/message").asText());
        assertEquals(1, response.at("/status/readyReplicas").intValue());
    }

    @Test
    void saysAvailableWhenTheRolloutIsComplete() {
        ObjectNode webApp = webApp();
        JsonNode response = sync(webApp, running(webApp,
                "{'observedGeneration':1,'replicas':2,'updatedReplicas':2,'readyReplicas':2,'availableReplicas':2}"));
        assertEquals("Ready=True/Available Reconciling=False/Available Stalled=False/Available", conditions(response));
        assertEquals("2/2 replicas available", response.at("/status/conditions/0/message").asText());
        assertEquals(2, response.at("/status/replicas").intValue());
        assertEquals(2, response.at("/status/updatedReplicas").intValue());
    }

    @Test
    void saysRollingOutWhileTheDeploymentHasNotSeenItsNewGeneration() {
        ObjectNode webApp = webApp();
        List<ObjectNode> observed = running(webApp,
                "{'observedGeneration':1,'replicas':2,'updatedReplicas':2,'readyReplicas':2,'availableReplicas':2}");
        observed.get(0).with("metadata").put("generation", 2);
        assertEquals("Ready=False/RollingOut Reconciling=True/RollingOut Stalled=False/RollingOut", conditions(sync(webApp, observed)));
    }

    @Test
    void saysRollingOutAfterAnImageChange() {
        ObjectNode webApp = webApp();
        List<ObjectNode> observed = running(webApp,
                "{'observedGeneration':1,'replicas':2,'updatedReplicas':2,'readyReplicas':2,'availableReplicas':2}");
        webApp.with("spec").put("image", "ghcr.io/example/hello:1.5.0");
        JsonNode response = sync(webApp, observed);
        assertEquals("Ready=False/RollingOut Reconciling=True/RollingOut Stalled=False/RollingOut", conditions(response));
        assertEquals("ghcr.io/example/hello:1.5.0", child(response, "Deployment", "hello").at("/spec/template/spec/containers/0/image").asText());
    }

    @Test
    void saysRollingOutWhileOldReplicasRemain() {
        ObjectNode webApp = webApp();
        JsonNode response = sync(webApp, running(webApp,
                "{'observedGeneration':1,'replicas':3,'updatedReplicas':2,'readyReplicas':3,'availableReplicas':3}"));
        assertEquals("Ready=False/RollingOut Reconciling=True/RollingOut Stalled=False/RollingOut", conditions(response));
    }

    @Test
    void stallsWhenTheProgressDeadlineIsExceeded() {
        ObjectNode webApp = webApp();
        JsonNode response = sync(webApp, running(webApp, "{'observedGeneration':1,'replicas':2,'updatedReplicas':1,"
                + "'conditions':[{'type':'Progressing','status':'False','reason':'ProgressDeadlineExceeded',"
                + "'message':'ReplicaSet \\\"hello-5d\\\" has timed out progressing.'}]}"));
        assertEquals("Ready=False/ProgressDeadlineExceeded Reconciling=False/ProgressDeadlineExceeded "
                + "Stalled=True/ProgressDeadlineExceeded", conditions(response));
        assertEquals("the Deployment exceeded its progress deadline: ReplicaSet \"hello-5d\" has timed out progressing.",
                response.at("/status/conditions/2/message").asText());
    }

    @Test
    void keepsChildrenWhenSpecIsInvalid() {
        ObjectNode webApp = webApp();
        List<ObjectNode> observed = running(webApp,
                "{'observedGeneration':1,'replicas':2,'updatedReplicas':2,'readyReplicas':2,'availableReplicas':2}");
        webApp.with("spec").put("port", 70000);
        JsonNode response = sync(webApp, observed);
        assertEquals("Ready=False/InvalidSpec Reconciling=False/InvalidSpec Stalled=True/InvalidSpec", conditions(response));
        assertEquals("spec.port: must be between 1 and 65535, got 70000", response.at("/status/conditions/2/message").asText());
        assertEquals(asLastApplied(observed.get(0)), child(response, "Deployment", "hello"));
        assertEquals(asLastApplied(observed.get(1)), child(response, "Service", "hello"));
        assertEquals("http://hello.default.svc:8080", response.at("/status/url").asText(), "the URL still served");
        assertEquals(2, response.at("/status/availableReplicas").intValue());
    }

    @Test
    void aWrongTypeInTheSpecIsAnInvalidSpecToo() {
        ObjectNode webApp = webApp();
        List<ObjectNode> observed = running(webApp, "{}");
        webApp.with("spec").put("replicas", "three");
        JsonNode response = sync(webApp, observed);
        assertEquals("spec.replicas: must be an integer, got \"three\"", response.at("/status/conditions/2/message").asText());
        assertEquals(2, response.get("children").size());
        webApp.with("spec").put("image", 42).put("replicas", 2);
        assertEquals("spec.image: must be a string, got 42", sync(webApp, observed).at("/status/conditions/2/message").asText());
        webApp.remove("spec");
        assertEquals("spec: is required, with at least spec.image", sync(webApp, observed).at("/status/conditions/2/message").asText());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"my.app", "Hello", "1st-app", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"})
    void aNameNoServiceCanHaveStallsWithInvalidSpec(String name) {
        ObjectNode webApp = webApp();
        webApp.with("metadata").put("name", name);
        JsonNode response = sync(webApp, List.of());
        assertEquals("Ready=False/InvalidSpec Reconciling=False/InvalidSpec Stalled=True/InvalidSpec", conditions(response));
        assertEquals("metadata.name: WebApp \"" + name + "\" would name a child \"" + name + "\", which the API server refuses: a Service"
                + " or Job name is at most 63 characters of lower-case letters, digits and '-', starting with a letter and ending with a"
                + " letter or digit; recreate the WebApp under such a name of at most 63 characters",
                response.at("/status/conditions/2/message").asText());
        assertEquals(0, response.get("children").size());
    }

    @Test
    void reportsNoUrlWhenInvalidBeforeAnyServiceExists() {
        ObjectNode webApp = webApp();
        webApp.with("spec").put("image", "has space");
        JsonNode response = sync(webApp, List.of());
        assertEquals(0, response.get("children").size());
        assertFalse(response.get("status").has("url"));
        assertEquals("spec.image: must not contain whitespace, got \"has space\"", response.at("/status/conditions/2/message").asText());
    }

    @Test
    void refusesEnvironmentNamesThatAreNotCIdentifiersOrRepeat() {
        ObjectNode webApp = webApp();
        webApp.with("spec").withArray("env").addObject().put("name", "GREETING").put("value", "again");
        assertEquals("spec.env[1].name: GREETING appears twice", sync(webApp, List.of()).at("/status/conditions/2/message").asText());
        webApp.with("spec").withArray("env").removeAll().addObject().put("name", "1ST");
        assertEquals("spec.env[0].name: must be a C identifier, got \"1ST\"", sync(webApp, List.of()).at("/status/conditions/2/message").asText());
    }

    @Test
    void deletesLeftoverChildren() {
        ObjectNode webApp = webApp();
        List<ObjectNode> observed = running(webApp, "{}");
        ObjectNode old = observed.get(0).deepCopy();
        old.with("metadata").put("name", "hello-old");
        observed.add(old);
        JsonNode response = sync(webApp, observed);
        assertEquals(2, response.get("children").size());
    }

    @Test
    void carriesLastTransitionTimeForward() {
        ObjectNode webApp = webApp();
        webApp.set("status", json("{'conditions':[{'type':'Ready','status':'True','reason':'Available','message':'',"
                + "'lastTransitionTime':'2026-11-28T09:00:00Z'},{'type':'Stalled','status':'True','reason':'InvalidSpec','message':'',"
                + "'lastTransitionTime':'2026-11-28T08:00:00Z'}]}"));
        JsonNode response = sync(webApp, running(webApp,
                "{'observedGeneration':1,'replicas':2,'updatedReplicas':2,'readyReplicas':2,'availableReplicas':2}"));
        assertEquals("2026-11-28T09:00:00Z", response.at("/status/conditions/0/lastTransitionTime").asText());
        assertEquals("2026-11-29T16:04:05Z", response.at("/status/conditions/2/lastTransitionTime").asText());
    }

    @Test
    void convergesToAFixedPoint() {
        ObjectNode webApp = webApp();
        List<ObjectNode> observed = running(webApp,
                "{'observedGeneration':1,'replicas':2,'updatedReplicas':2,'readyReplicas':2,'availableReplicas':2}");
        JsonNode response = sync(webApp, observed);
        assertEquals(lastApplied(observed.get(0)), child(response, "Deployment", "hello"));
        assertEquals(lastApplied(observed.get(1)), child(response, "Service", "hello"));
    }

    /** Exactly what Metacontroller last applied, controller-uid label included. */
    static ObjectNode asLastApplied(JsonNode observed) {
        return (ObjectNode) dev.metahook.wire.Json.parse(observed.at("/metadata/annotations")
                .get("metacontroller.k8s.io/last-applied-configuration").asText().getBytes());
    }

    /** What the hook sent before Metacontroller added the controller-uid label. */
    private static JsonNode lastApplied(JsonNode observed) {
        ObjectNode applied = asLastApplied(observed);
        ((ObjectNode) applied.at("/metadata/labels")).remove("controller-uid");
        return applied;
    }
}
