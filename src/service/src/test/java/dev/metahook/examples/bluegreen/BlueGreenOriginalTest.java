package dev.metahook.examples.bluegreen;

import static dev.metahook.examples.OriginalAnswers.assertChildren;
import static dev.metahook.examples.OriginalAnswers.assertStalledKeepingEverything;
import static dev.metahook.examples.OriginalAnswers.assertStatus;
import static dev.metahook.examples.OriginalAnswers.json;
import static dev.metahook.examples.OriginalAnswers.object;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;


import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.examples.OriginalAnswers;
import dev.metahook.testkit.Answer;
import dev.metahook.testkit.HookCall;
import dev.metahook.testkit.HookTester;
import dev.metahook.internal.wire.CanonicalJson;
import dev.metahook.internal.wire.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The bluegreen port answers as Metacontroller's {@code examples/bluegreen/manifest/sync.js} does.
 * Every expectation below is worked out from that source: the active color is the observed
 * Service's {@code selector.color} (blue without a Service); the ReplicaSets are {@code <name>-blue}
 * and {@code <name>-green}, each recording its pod template as JSON in an annotation; then one step:
 * the active one runs the current template, so the inactive one goes to 0; or the inactive one runs
 * it, so it goes to {@code spec.replicas} and, once {@code status.availableReplicas} equals that, the
 * colors swap (replica counts and templates with them); or neither does, and a new rollout starts on
 * the inactive one only when its {@code spec.replicas} and {@code status.replicas} are both 0,
 * otherwise it is scaled to 0 first. The status is the color found and the two ReplicaSets' observed
 * status ({@code {}} for one that does not exist). Objects are written as the original writes them
 * ({@code newReplicaSet}, {@code newService}).
 */
class BlueGreenOriginalTest {
    private static final HookTester V1 = OriginalAnswers.v1("bluegreen", "examples/bluegreen/controller.yaml");
    private static final HookTester V2 = OriginalAnswers.v2("bluegreen", "examples/bluegreen/controller.yaml");
    private static final String NAMESPACE = "default";
    private static final JsonNode ONE = template("nginxinc/nginx-unprivileged:1.27-alpine");
    private static final JsonNode TWO = template("nginxinc/nginx-unprivileged:1.28-alpine");
    private static final JsonNode THREE = template("nginxinc/nginx-unprivileged:1.29-alpine");

    // sync.js, no children: activeColor 'blue'; activeReplicas = spec.replicas, both templates the spec's;
    // neither RS exists, so podTemplateEqual is false twice and the "cancel and wait" branch sets inactive to 0.
    @Test
    void aNewDeploymentGetsBlueAtFullSizeGreenAtZeroAndTheServiceOnBlue() {
        Answer answer = V1.sync(object(parent(ONE))).call();
        assertChildren(List.of(service("blue"), replicaSet("blue", 3, ONE), replicaSet("green", 0, ONE)), answer, NAMESPACE);
        assertStatus(Map.of("activeColor", text("blue"), "active", json("{}"), "inactive", json("{}")), answer);
    }

    // The original looks its children up by name in v1 keys; for the same state, the v2 answer is the v1 answer.
    @Test
    void aNewDeploymentUnderV2KeysIsAnsweredAlike() {
        Answer answer = V2.sync(object(parent(ONE))).call();
        assertChildren(List.of(service("blue"), replicaSet("blue", 3, ONE), replicaSet("green", 0, ONE)), answer, NAMESPACE);
    }

    // Only the Service exists: the color comes from it, and with no ReplicaSet it is a creation again.
    @Test
    void aServiceAloneIsACreation() {
        Answer answer = V1.sync(object(parent(ONE))).observing(object(service("blue"))).call();
        assertChildren(List.of(service("blue"), replicaSet("blue", 3, ONE), replicaSet("green", 0, ONE)), answer, NAMESPACE);
    }

    // A Service on green without its ReplicaSets: activeColor 'green', so green gets spec.replicas and blue 0.
    @Test
    void aServiceOnGreenWithoutReplicaSetsMakesGreenActive() {
        Answer answer = V1.sync(object(parent(ONE))).observing(object(service("green"))).call();
        assertChildren(List.of(service("green"), replicaSet("green", 3, ONE), replicaSet("blue", 0, ONE)), answer, NAMESPACE);
        assertStatus(Map.of("activeColor", text("green")), answer);
    }

    // Blue observed and current, green and the Service missing: inactive (green) is made at 0 with the spec's template.
    @Test
    void aMissingInactiveReplicaSetIsMadeAtZero() {
        ObjectNode blue = observed(replicaSet("blue", 3, ONE), 3, 3);
        Answer answer = V1.sync(object(parent(ONE))).observing(object(blue)).call();
        assertChildren(List.of(service("blue"), replicaSet("blue", 3, ONE), replicaSet("green", 0, ONE)), answer, NAMESPACE);
        assertStatus(Map.of("activeColor", text("blue"), "active", blue.get("status"), "inactive", json("{}")), answer);
    }

    // Settled: blue runs the spec's template, so green stays at 0; the status carries both observed statuses.
    @Test
    void aSettledDeploymentIsAnsweredAsItIs() {
        ObjectNode blue = observed(replicaSet("blue", 3, ONE), 3, 3);
        ObjectNode green = observed(replicaSet("green", 0, ONE), 0, 0);
        Answer answer = call(V1, parent(ONE), service("blue"), blue, green);
        assertChildren(List.of(service("blue"), replicaSet("blue", 3, ONE), replicaSet("green", 0, ONE)), answer, NAMESPACE);
        assertStatus(Map.of("activeColor", text("blue"), "active", blue.get("status"), "inactive", green.get("status")), answer);
    }

    // A new template, green at spec.replicas 0 and status.replicas 0: "Start a new rollout" on green with the new template.
    @Test
    void aNewTemplateStartsOnTheInactiveColorOnceItIsDownToZero() {
        Answer answer = call(V1, parent(TWO), service("blue"), observed(replicaSet("blue", 3, ONE), 3, 3),
                observed(replicaSet("green", 0, ONE), 0, 0));
        assertChildren(List.of(service("blue"), replicaSet("blue", 3, ONE), replicaSet("green", 3, TWO)), answer, NAMESPACE);
    }

    // The same under v2 keys.
    @Test
    void aNewTemplateStartsAlikeUnderV2Keys() {
        Answer answer = call(V2, parent(TWO), service("blue"), observed(replicaSet("blue", 3, ONE), 3, 3),
                observed(replicaSet("green", 0, ONE), 0, 0));
        assertChildren(List.of(service("blue"), replicaSet("blue", 3, ONE), replicaSet("green", 3, TWO)), answer, NAMESPACE);
    }

    // `inactiveRS.status.replicas === 0` is false when the status has no replicas: the original waits (green stays 0 on its old template).
    @Test
    void aStatusWithoutReplicasMakesTheRolloutWait() {
        ObjectNode green = replicaSet("green", 0, ONE);
        green.set("status", json("{'observedGeneration':1}"));
        Answer answer = call(V1, parent(TWO), service("blue"), observed(replicaSet("blue", 3, ONE), 3, 3), green);
        assertChildren(List.of(service("blue"), replicaSet("blue", 3, ONE), replicaSet("green", 0, ONE)), answer, NAMESPACE);
    }

    // `inactiveRS.status &&` is false without a status: the same wait. The status's `inactive` is the ReplicaSet's
    // status, undefined, which JSON leaves out.
    @Test
    void noStatusAtAllMakesTheRolloutWait() {
        Answer answer = call(V1, parent(TWO), service("blue"), observed(replicaSet("blue", 3, ONE), 3, 3), replicaSet("green", 0, ONE));
        assertChildren(List.of(service("blue"), replicaSet("blue", 3, ONE), replicaSet("green", 0, ONE)), answer, NAMESPACE);
        assertFalse(OriginalAnswers.body(answer).path("status").has("inactive"), answer::toString);
    }

    // Green runs the new template with 2 of 3 available: it is scaled to spec.replicas, no swap yet.
    @Test
    void theInactiveColorScalesUpAndTrafficStaysUntilAllAreAvailable() {
        Answer answer = call(V1, parent(TWO), service("blue"), observed(replicaSet("blue", 3, ONE), 3, 3),
                observed(replicaSet("green", 3, TWO), 3, 2));
        assertChildren(List.of(service("blue"), replicaSet("blue", 3, ONE), replicaSet("green", 3, TWO)), answer, NAMESPACE);
        assertStatus(Map.of("activeColor", text("blue")), answer);
    }

    // availableReplicas === spec.replicas: swap. The Service goes to green; blue keeps its 3 replicas and template
    // this step (the swapped activeReplicas); the status still says blue, computed before the swap.
    @Test
    void allAvailableSwitchesTheServiceAndSwapsTheSides() {
        ObjectNode blue = observed(replicaSet("blue", 3, ONE), 3, 3);
        ObjectNode green = observed(replicaSet("green", 3, TWO), 3, 3);
        Answer answer = call(V1, parent(TWO), service("blue"), blue, green);
        assertChildren(List.of(service("green"), replicaSet("green", 3, TWO), replicaSet("blue", 3, ONE)), answer, NAMESPACE);
        assertStatus(Map.of("activeColor", text("blue"), "active", blue.get("status"), "inactive", green.get("status")), answer);
    }

    // The same swap under v2 keys.
    @Test
    @Tag("differs")
    void theSwapIsAlikeUnderV2Keys() {
        Answer answer = call(V2, parent(TWO), service("blue"), observed(replicaSet("blue", 3, ONE), 3, 3),
                observed(replicaSet("green", 3, TWO), 3, 3));
        assertChildren(List.of(service("green"), replicaSet("green", 3, TWO), replicaSet("blue", 3, ONE)), answer, NAMESPACE);
    }

    // After the swap green is active and current: blue, now inactive, goes to 0 on its old template.
    @Test
    void afterTheSwapTheOldColorScalesDown() {
        Answer answer = call(V1, parent(TWO), service("green"), observed(replicaSet("blue", 3, ONE), 3, 3),
                observed(replicaSet("green", 3, TWO), 3, 3));
        assertChildren(List.of(service("green"), replicaSet("green", 3, TWO), replicaSet("blue", 0, ONE)), answer, NAMESPACE);
        assertStatus(Map.of("activeColor", text("green")), answer);
    }

    // The next template goes back to blue once blue is at 0.
    @Test
    void theNextRolloutGoesBackToBlue() {
        Answer answer = call(V1, parent(THREE), service("green"), observed(replicaSet("blue", 0, ONE), 0, 0),
                observed(replicaSet("green", 3, TWO), 3, 3));
        assertChildren(List.of(service("green"), replicaSet("green", 3, TWO), replicaSet("blue", 3, THREE)), answer, NAMESPACE);
    }

    // The template changes again mid-rollout: neither side runs it and green is not at 0, so green is cancelled to 0,
    // keeping the template it records ("Some other rollout was in progress. We need to cancel it and wait.").
    @Test
    void aTemplateChangedMidRolloutCancelsTheRolloutFirst() {
        Answer answer = call(V1, parent(THREE), service("blue"), observed(replicaSet("blue", 3, ONE), 3, 3),
                observed(replicaSet("green", 3, TWO), 3, 1));
        assertChildren(List.of(service("blue"), replicaSet("blue", 3, ONE), replicaSet("green", 0, TWO)), answer, NAMESPACE);
    }

    // spec.replicas alone changes: the active side keeps its observed spec.replicas (activeRS.spec.replicas).
    @Test
    void aNewReplicaCountAloneDoesNotResizeTheActiveSide() {
        ObjectNode parent = parent(ONE);
        parent.withObjectProperty("spec").put("replicas", 5);
        Answer answer = call(V1, parent, service("blue"), observed(replicaSet("blue", 3, ONE), 3, 3), observed(replicaSet("green", 0, ONE), 0, 0));
        assertChildren(List.of(service("blue"), replicaSet("blue", 3, ONE), replicaSet("green", 0, ONE)), answer, NAMESPACE);
    }

    // Without minReadySeconds the original writes `minReadySeconds: undefined`, which JSON leaves out.
    @Test
    void noMinReadySecondsLeavesTheFieldOut() {
        ObjectNode parent = parent(ONE);
        parent.withObjectProperty("spec").remove("minReadySeconds");
        Answer answer = V1.sync(object(parent)).call();
        List<JsonNode> expected = new ArrayList<>();
        expected.add(service("blue"));
        for (ObjectNode set : List.of(replicaSet("blue", 3, ONE), replicaSet("green", 0, ONE))) {
            set.withObjectProperty("spec").remove("minReadySeconds");
            expected.add(set);
        }
        assertChildren(expected, answer, NAMESPACE);
    }

    // Odd spec: `service.spec.selector.color = color` throws on a Service without a selector, so the original answers
    // 500 and nothing changes. The port (docs/examples.md) keeps every child as last applied and stalls, rather
    // than a Service selecting only {color: blue}: every blue pod of any app in the namespace.
    @Test
    @Tag("differs")
    void aServiceWithoutASelectorChangesNothing() {
        ObjectNode parent = parent(ONE);
        ((ObjectNode) parent.at("/spec/service/spec")).remove("selector");
        List<ObjectNode> observed = List.of(service("blue"), observed(replicaSet("blue", 3, ONE), 3, 3), observed(replicaSet("green", 0, ONE), 0, 0));
        Answer answer = call(V1, parent, observed.toArray(ObjectNode[]::new));
        assertStalledKeepingEverything(List.of(service("blue"), replicaSet("blue", 3, ONE), replicaSet("green", 0, ONE)),
                "InvalidSpec", answer, NAMESPACE);
    }

    // Odd spec: `selector: {}`. The original writes a Service selecting {color: blue} alone; the port stalls instead
    // (docs/examples.md), as that would send the Service's traffic to every blue pod in the namespace.
    @Test
    @Tag("differs")
    void anEmptyServiceSelectorChangesNothing() {
        ObjectNode parent = parent(ONE);
        ((ObjectNode) parent.at("/spec/service/spec")).putObject("selector");
        Answer answer = call(V1, parent, service("blue"), observed(replicaSet("blue", 3, ONE), 3, 3), observed(replicaSet("green", 0, ONE), 0, 0));
        assertStalledKeepingEverything(List.of(service("blue"), replicaSet("blue", 3, ONE), replicaSet("green", 0, ONE)),
                "InvalidSpec", answer, NAMESPACE);
    }

    // An observed Service whose selector has a color other than green: the original would take that "color" as the
    // active one and name ReplicaSets after it; the port reads it as blue (docs/examples.md).
    @Test
    @Tag("differs")
    void anObservedServiceOfAnotherColorIsReadAsBlue() {
        ObjectNode red = service("red");
        Answer answer = call(V1, parent(ONE), red, observed(replicaSet("blue", 3, ONE), 3, 3), observed(replicaSet("green", 0, ONE), 0, 0));
        assertChildren(List.of(service("blue"), replicaSet("blue", 3, ONE), replicaSet("green", 0, ONE)), answer, NAMESPACE);
        assertStatus(Map.of("activeColor", text("blue")), answer);
    }

    // Odd spec: without spec.selector, `rs.spec.selector.matchLabels` throws on null and the original answers 500. So does
    // the port: Metacontroller cannot match children to a parent without a selector (it aborts such a sync), and the
    // guards refuse the answer, naming the rule. Nothing changes either way.
    @Test
    @Tag("differs")
    void aSpecWithoutASelectorIsA500AsInTheOriginal() {
        ObjectNode parent = parent(ONE);
        parent.withObjectProperty("spec").remove("selector");
        Answer answer = call(V1, parent, service("blue"), observed(replicaSet("blue", 3, ONE), 3, 3), observed(replicaSet("green", 0, ONE), 0, 0));
        assertEquals(500, answer.code(), answer::toString);
        assertTrue(answer.violations().stream().allMatch(violation -> violation.startsWith("selector: ")), answer::toString);
    }

    // Odd spec, a new deployment: without spec.selector the original answers 500 (selector.matchLabels of undefined). The
    // port stalls: with no child to keep, its answer is 200 with Stalled=True (InvalidSpec), which Metacontroller writes.
    @Test
    @Tag("differs")
    void aNewDeploymentWithoutASelectorIsStalledNotA500() {
        ObjectNode parent = parent(ONE);
        parent.withObjectProperty("spec").remove("selector");
        Answer answer = call(V1, parent);
        assertEquals(200, answer.code(), answer::toString);
        assertStalledKeepingEverything(List.of(), "InvalidSpec", answer, NAMESPACE);
    }

    // A quantity written another way: the original compares templates as JSON text, so 1Gi and then 1024Mi is a new
    // template and starts a rollout; the port compares the pod templates as the model reads them, equal quantities
    // equal, so nothing rolls.
    @Test
    @Tag("differs")
    void aQuantityWrittenAnotherWayIsNoNewTemplate() {
        JsonNode gibi = withMemory(ONE, "1Gi");
        JsonNode mebi = withMemory(ONE, "1024Mi");
        ObjectNode blue = observed(replicaSet("blue", 3, gibi), 3, 3);
        ObjectNode green = observed(replicaSet("green", 0, gibi), 0, 0);
        Answer answer = call(V1, parent(mebi), service("blue"), blue, green);
        assertChildren(List.of(service("blue"), replicaSet("blue", 3, gibi), replicaSet("green", 0, gibi)), answer, NAMESPACE);
    }

    // An empty list in the template (env: []): the original copies the template as given; the port's model writes no
    // empty list, so the ReplicaSet's template has no env at all. The API server stores none either (omitempty).
    @Test
    @Tag("differs")
    void anEmptyListInTheTemplateIsLeftOut() {
        ObjectNode template = ONE.deepCopy();
        ((ObjectNode) template.at("/spec/containers/0")).putArray("env");
        Answer answer = call(V1, parent(template));
        JsonNode set = answer.children().stream().filter(child -> child.getKind().equals("ReplicaSet")).findFirst()
                .map(Json::tree).orElseThrow(() -> new AssertionError(answer));
        assertTrue(set.at("/spec/template/spec/containers/0/env").isMissingNode(), set.toString());
    }

    private static JsonNode withMemory(JsonNode template, String memory) {
        ObjectNode copy = template.deepCopy();
        ((ObjectNode) copy.at("/spec/containers/0")).putObject("resources").putObject("limits").put("memory", memory);
        return copy;
    }

    // Finalize: the original registers no finalize hook (bluegreen-controller.yaml), so Metacontroller never sends one
    // and the ReplicaSets and Service go with the parent by garbage collection. The port has none either: a finalize
    // call is refused rather than answered as a sync.
    @Test
    void thereIsNoFinalizeHook() {
        Answer answer = V1.finalize(object(parent(ONE))).observing(object(service("blue"))).call();
        assertTrue(answer.code() >= 400 && answer.code() < 500, answer::toString);
    }

    private static Answer call(HookTester tester, ObjectNode parent, ObjectNode... observed) {
        HookCall call = tester.sync(object(parent));
        for (ObjectNode child : observed) {
            call.observing(object(child));
        }
        return call.call();
    }

    private static ObjectNode parent(JsonNode template) {
        ObjectNode parent = OriginalAnswers.manifest("examples/bluegreen/my-bluegreen.yaml");
        parent.withObjectProperty("spec").set("template", template.deepCopy());
        return parent;
    }

    private static JsonNode template(String image) {
        JsonNode template = OriginalAnswers.manifest("examples/bluegreen/my-bluegreen.yaml").at("/spec/template");
        ((ObjectNode) template.at("/spec/containers/0")).put("image", image);
        return template;
    }

    /** newReplicaSet: the template's labels and the color, the template as JSON, the parent's selector and the color. */
    private static ObjectNode replicaSet(String color, int replicas, JsonNode template) {
        ObjectNode set = Json.object().put("apiVersion", "apps/v1").put("kind", "ReplicaSet");
        ObjectNode metadata = set.putObject("metadata").put("name", "nginx-" + color);
        metadata.set("labels", template.at("/metadata/labels").deepCopy());
        metadata.withObjectProperty("labels").put("color", color);
        metadata.putObject("annotations").put(RecordedTemplate.ANNOTATION, CanonicalJson.string(template));
        ObjectNode spec = set.putObject("spec").put("replicas", replicas).put("minReadySeconds", 5);
        spec.set("selector", parent(template).at("/spec/selector").deepCopy());
        spec.withObjectProperty("selector").withObjectProperty("matchLabels").put("color", color);
        spec.set("template", template.deepCopy());
        spec.withObjectProperty("template").withObjectProperty("metadata").withObjectProperty("labels").put("color", color);
        return set;
    }

    /** newService: spec.service with its apiVersion and kind, and the color in its selector. */
    private static ObjectNode service(String color) {
        ObjectNode service = parent(ONE).at("/spec/service").deepCopy();
        service.put("apiVersion", "v1").put("kind", "Service");
        service.withObjectProperty("spec").withObjectProperty("selector").put("color", color);
        return service;
    }

    /** A ReplicaSet as observed, with the status its controller writes (replicas always, the other counts when not zero). */
    private static ObjectNode observed(ObjectNode set, int replicas, int available) {
        ObjectNode observed = set.deepCopy();
        ObjectNode status = observed.putObject("status").put("observedGeneration", 1).put("replicas", replicas);
        if (replicas > 0) {
            status.put("fullyLabeledReplicas", replicas);
        }
        if (available > 0) {
            status.put("readyReplicas", available).put("availableReplicas", available);
        }
        return observed;
    }

    private static JsonNode text(String value) {
        return Json.tree(value);
    }
}
