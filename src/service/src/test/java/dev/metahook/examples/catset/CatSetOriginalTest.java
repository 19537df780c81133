package dev.metahook.examples.catset;

import static dev.metahook.examples.OriginalAnswers.assertChildren;
import static dev.metahook.examples.OriginalAnswers.assertStalledKeepingEverything;
import static dev.metahook.examples.OriginalAnswers.assertStatus;
import static dev.metahook.examples.OriginalAnswers.json;
import static dev.metahook.examples.OriginalAnswers.object;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.api.Cleaner;
import dev.metahook.api.Cleanup;
import dev.metahook.api.CompositeController;
import dev.metahook.api.Context;
import dev.metahook.api.Controllers;
import dev.metahook.api.Result;
import dev.metahook.examples.OriginalAnswers;
import dev.metahook.testkit.Answer;
import dev.metahook.testkit.HookCall;
import dev.metahook.testkit.HookTester;
import dev.metahook.internal.wire.Json;
import io.fabric8.kubernetes.api.model.Pod;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The catset port answers as Metacontroller's {@code examples/catset/sync.js} does (one hook for sync
 * and finalize). Every expectation below is worked out from that source: observed pods are arranged
 * by the ordinal in {@code <name>-<n>} (others are left out, so deleted); finalizing sets
 * {@code spec.replicas} to 0 and is done when no such pod is left; {@code ready} counts the running
 * and Ready pods from ordinal 0 up; every observed pod is re-rendered from the template, the pod at
 * {@code ready} is added while {@code ready < replicas}, and once {@code ready === replicas} the
 * highest pod at or above {@code replicas} is removed; pods are listed highest ordinal first ("that
 * determines rolling update order"), then a claim per template and wanted ordinal and the observed
 * claims above them. Status: {@code replicas} (pods by ordinal) and {@code readyReplicas}.
 *
 * <p>The order asserted is the one the controller returns (its typed {@link Result}), which is what
 * Metacontroller rolls RollingRecreate pods by once the engine keeps it.
 */
class CatSetOriginalTest {
    private static final Recorded CONTROLLER = new Recorded();
    private static final Controllers CONTROLLERS = Controllers.builder().composite("catset", CatSet.class, CONTROLLER).build();
    private static final HookTester V1 = HookTester.of(CONTROLLERS, "catset", Path.of("examples/catset/controller.yaml"));
    private static final HookTester V2 = OriginalAnswers.v2(CONTROLLERS, "catset", "examples/catset/controller.yaml");
    private static final String NAMESPACE = "default";
    private static final String IMAGE = "nginxinc/nginx-unprivileged:1.27-alpine";

    /** The port, remembering the pods of the result it returned last, in its order. */
    static final class Recorded implements CompositeController<CatSet, CatSet.Status>, Cleaner<CatSet, CatSet.Status> {
        private final CatSetController controller = new CatSetController();
        private volatile List<String> pods = List.of();

        @Override
        public Result<CatSet.Status> sync(CatSet catSet, Context context) {
            return recorded(controller.sync(catSet, context));
        }

        @Override
        public Cleanup<CatSet.Status> cleanup(CatSet catSet, Context context) {
            Cleanup<CatSet.Status> cleanup = controller.cleanup(catSet, context);
            recorded(cleanup.result());
            return cleanup;
        }

        private Result<CatSet.Status> recorded(Result<CatSet.Status> result) {
            pods = result.objects().stream().filter(Pod.class::isInstance).map(pod -> pod.getMetadata().getName()).toList();
            return result;
        }
    }

    // No pods: ready = 0, so pod 0 is added; claims for ordinals 0..2; nothing observed yet.
    @Test
    void aNewCatSetStartsWithPodZeroAndEveryClaim() {
        Answer answer = sync(V1, parent());
        assertChildren(with(claims(0, 1, 2), pod(0)), answer, NAMESPACE);
        assertStatus(Map.of("replicas", number(0), "readyReplicas", number(0)), answer);
        assertOrder("nginx-backend-0");
    }

    // Pod 0 exists but is Pending: ready stays 0 and 0 is already desired, so nothing is added.
    @Test
    void theNextPodWaitsForTheLowerOnesToBeReady() {
        Answer answer = sync(V1, parent(), pending(pod(0)));
        assertChildren(with(claims(0, 1, 2), pod(0)), answer, NAMESPACE);
        assertStatus(Map.of("replicas", number(1), "readyReplicas", number(0)), answer);
    }

    // Pod 0 Running and Ready: ready = 1, so pod 1 is added; listed 1 then 0.
    @Test
    void aReadyPodLetsTheNextOrdinalIn() {
        Answer answer = sync(V1, parent(), ready(pod(0)));
        assertChildren(with(claims(0, 1, 2), pod(0), pod(1)), answer, NAMESPACE);
        assertStatus(Map.of("replicas", number(1), "readyReplicas", number(1)), answer);
        assertOrder("nginx-backend-1", "nginx-backend-0");
    }

    // Pods 0 and 1 Ready: pod 2 is added, and the pods are listed from the highest ordinal down.
    @Test
    void podsAreListedHighestOrdinalFirst() {
        Answer answer = sync(V1, parent(), ready(pod(0)), ready(pod(1)));
        assertChildren(with(claims(0, 1, 2), pod(0), pod(1), pod(2)), answer, NAMESPACE);
        assertStatus(Map.of("replicas", number(2), "readyReplicas", number(2)), answer);
        assertOrder("nginx-backend-2", "nginx-backend-1", "nginx-backend-0");
    }

    // The same state under v2 keys: the original reads pods by their names, not their keys, so the answer is the same.
    @Test
    void v2KeysGetTheSameAnswer() {
        Answer answer = sync(V2, parent(), ready(pod(0)), ready(pod(1)));
        assertChildren(with(claims(0, 1, 2), pod(0), pod(1), pod(2)), answer, NAMESPACE);
        assertOrder("nginx-backend-2", "nginx-backend-1", "nginx-backend-0");
    }

    // All three Ready: ready === replicas and the highest ordinal (2) is below replicas, so nothing goes.
    @Test
    void aSettledCatSetIsAnsweredAsItIs() {
        Answer answer = sync(V1, parent(), ready(pod(0)), ready(pod(1)), ready(pod(2)), claim(0), claim(1), claim(2));
        assertChildren(with(claims(0, 1, 2), pod(0), pod(1), pod(2)), answer, NAMESPACE);
        assertStatus(Map.of("replicas", number(3), "readyReplicas", number(3)), answer);
    }

    // Pod 1 not Ready: ready counts 0 only (it stops at the first gap), the status says 1, every pod stays.
    @Test
    void readyReplicasStopsAtTheFirstPodThatIsNotReady() {
        Answer answer = sync(V1, parent(), ready(pod(0)), pending(pod(1)), ready(pod(2)));
        assertChildren(with(claims(0, 1, 2), pod(0), pod(1), pod(2)), answer, NAMESPACE);
        assertStatus(Map.of("replicas", number(3), "readyReplicas", number(1)), answer);
    }

    // Scaled to 1 with all Ready: ready = 1 === replicas, so the highest pod (2) goes, one per sync; the claims
    // of ordinals 1 and 2 stay (observed claims above replicas are kept).
    @Test
    void aScaleDownRemovesTheHighestPodOnlyAndKeepsTheClaims() {
        ObjectNode parent = parent();
        parent.withObjectProperty("spec").put("replicas", 1);
        Answer answer = sync(V1, parent, ready(pod(0)), ready(pod(1)), ready(pod(2)), claim(0), claim(1), claim(2));
        assertChildren(with(claims(0, 1, 2), pod(0), pod(1)), answer, NAMESPACE);
        assertStatus(Map.of("replicas", number(3), "readyReplicas", number(1)), answer);
        assertOrder("nginx-backend-1", "nginx-backend-0");
    }

    // Scaled to 1 but pod 0 is not Ready: ready (0) is not replicas, so no pod goes yet.
    @Test
    void aScaleDownWaitsForTheWantedPodsToBeReady() {
        ObjectNode parent = parent();
        parent.withObjectProperty("spec").put("replicas", 1);
        Answer answer = sync(V1, parent, pending(pod(0)), ready(pod(1)), ready(pod(2)), claim(0), claim(1), claim(2));
        assertChildren(with(claims(0, 1, 2), pod(0), pod(1), pod(2)), answer, NAMESPACE);
        assertStatus(Map.of("replicas", number(3), "readyReplicas", number(0)), answer);
    }

    // A new template: every pod is rendered from it, highest ordinal first, which is the order RollingRecreate
    // replaces them in (cs-2, cs-1, cs-0).
    @Test
    void aNewTemplateRendersEveryPodInRollingOrder() {
        String image = "nginxinc/nginx-unprivileged:1.28-alpine";
        ObjectNode parent = parent();
        ((ObjectNode) parent.at("/spec/template/spec/containers/0")).put("image", image);
        Answer answer = sync(V1, parent, ready(pod(0)), ready(pod(1)), ready(pod(2)), claim(0), claim(1), claim(2));
        assertChildren(with(claims(0, 1, 2), pod(0, image), pod(1, image), pod(2, image)), answer, NAMESPACE);
        assertOrder("nginx-backend-2", "nginx-backend-1", "nginx-backend-0");
    }

    // Finalize with three pods: replicas is taken as 0, ready = 0 === 0, so the highest pod goes and the rest stay
    // without waiting for readiness; every observed claim stays; not finalized while pods are left.
    @Test
    void finalizeRemovesTheHighestPodFirst() {
        Answer answer = finalize(V1, parent(), ready(pod(0)), ready(pod(1)), ready(pod(2)), claim(0), claim(1), claim(2));
        assertChildren(with(claims(0, 1, 2), pod(0), pod(1)), answer, NAMESPACE);
        assertStatus(Map.of("replicas", number(3), "readyReplicas", number(0)), answer);
        assertEquals(false, OriginalAnswers.body(answer).path("finalized").asBoolean(true));
        assertOrder("nginx-backend-1", "nginx-backend-0");
    }

    // The same finalize under v2 keys.
    @Test
    void finalizeUnderV2KeysIsAnsweredAlike() {
        Answer answer = finalize(V2, parent(), ready(pod(0)), ready(pod(1)), claim(0), claim(1), claim(2));
        assertChildren(with(claims(0, 1, 2), pod(0)), answer, NAMESPACE);
        assertEquals(false, OriginalAnswers.body(answer).path("finalized").asBoolean(true));
    }

    // Finalize with no pod left: finalized, the claims still answered (Metacontroller ignores children once finalized).
    @Test
    void finalizeIsDoneOnceNoPodIsLeft() {
        Answer answer = finalize(V1, parent(), claim(0), claim(1), claim(2));
        assertChildren(claims(0, 1, 2), answer, NAMESPACE);
        assertStatus(Map.of("replicas", number(0), "readyReplicas", number(0)), answer);
        assertEquals(true, OriginalAnswers.body(answer).path("finalized").asBoolean(false));
    }

    // Finalize with spec.replicas "three": the original overwrites replicas with 0 before reading it and scales down
    // as above. The port cannot read that spec (the whole spec is left out), so the pods that stay are kept as last
    // applied, which is what the template renders when it has not changed.
    @Test
    @Tag("differs")
    void finalizeScalesDownWhateverSpecReplicasSays() {
        ObjectNode parent = parent();
        parent.withObjectProperty("spec").put("replicas", "three");
        Answer answer = finalize(V1, parent, ready(pod(0)), ready(pod(1)), ready(pod(2)), claim(0), claim(1), claim(2));
        assertChildren(with(claims(0, 1, 2), pod(0), pod(1)), answer, NAMESPACE);
        assertStatus(Map.of("replicas", number(3), "readyReplicas", number(0)), answer);
        assertOrder("nginx-backend-1", "nginx-backend-0");
    }

    // Deliberate difference: finalize without a template. The original fails rendering the pods it keeps (500), so the
    // CatSet is never deleted; the port scales down all the same, keeping the pods that stay as last applied.
    @Test
    @Tag("differs")
    void finalizeWithoutATemplateStillScalesDown() {
        ObjectNode parent = parent();
        parent.withObjectProperty("spec").remove("template");
        Answer answer = finalize(V1, parent, ready(pod(0)), ready(pod(1)), claim(0), claim(1), claim(2));
        assertChildren(with(claims(0, 1, 2), pod(0)), answer, NAMESPACE);
        assertEquals(false, OriginalAnswers.body(answer).path("finalized").asBoolean(true));
        assertTrue(finalize(V1, parent, claim(0), claim(1), claim(2)).finalized(), "done once no pod is left");
    }

    // Finalize without spec.replicas: the same scale-down, the pods rendered from the template.
    @Test
    void finalizeScalesDownWithoutSpecReplicas() {
        ObjectNode parent = parent();
        parent.withObjectProperty("spec").remove("replicas");
        Answer answer = finalize(V1, parent, ready(pod(0)), ready(pod(1)), claim(0), claim(1), claim(2));
        assertChildren(with(claims(0, 1, 2), pod(0)), answer, NAMESPACE);
    }

    // Pods whose names are not <name>-<n> get no ordinal, are not counted and not answered (so deleted).
    @Test
    void podsWithoutAnOrdinalOfThisCatSetAreLeftOut() {
        ObjectNode other = pod(0);
        other.withObjectProperty("metadata").put("name", "web-nginx-backend-0");
        ObjectNode lettered = pod(0);
        lettered.withObjectProperty("metadata").put("name", "nginx-backend-x");
        Answer answer = sync(V1, parent(), ready(pod(0)), ready(other), ready(lettered));
        assertChildren(with(claims(0, 1, 2), pod(0), pod(1)), answer, NAMESPACE);
        assertStatus(Map.of("replicas", number(1), "readyReplicas", number(1)), answer);
    }

    // "nginx-backend-01" has ordinal 1 (parseInt), so it is rendered under the name nginx-backend-1 and pod 0 is
    // added; the observed "-01" pod is left out.
    @Test
    void anOrdinalWithALeadingZeroIsRenderedUnderItsPlainName() {
        ObjectNode padded = pod(1);
        padded.withObjectProperty("metadata").put("name", "nginx-backend-01");
        Answer answer = sync(V1, parent(), ready(padded));
        assertChildren(with(claims(0, 1, 2), pod(0), pod(1)), answer, NAMESPACE);
        assertStatus(Map.of("replicas", number(1), "readyReplicas", number(0)), answer);
        assertOrder("nginx-backend-1", "nginx-backend-0");
    }

    // No volumeClaimTemplates: pods get no volumes and there are no claims.
    @Test
    void withoutClaimTemplatesThereAreNoClaimsOrVolumes() {
        ObjectNode parent = parent();
        parent.withObjectProperty("spec").remove("volumeClaimTemplates");
        Answer answer = sync(V1, parent, ready(pod(0)));
        List<JsonNode> pods = new ArrayList<>();
        for (ObjectNode pod : List.of(pod(0), pod(1))) {
            ((ObjectNode) pod.get("spec")).remove("volumes");
            pods.add(pod);
        }
        assertChildren(pods, answer, NAMESPACE);
    }

    // Zero replicas and no pods: Math.max() of nothing is -Infinity, so nothing is removed; no claim is wanted, the
    // observed ones (ordinal >= 0) stay.
    @Test
    void zeroReplicasKeepsTheClaims() {
        ObjectNode parent = parent();
        parent.withObjectProperty("spec").put("replicas", 0);
        Answer answer = sync(V1, parent, claim(0), claim(1));
        assertChildren(claims(0, 1), answer, NAMESPACE);
        assertStatus(Map.of("replicas", number(0), "readyReplicas", number(0)), answer);
    }

    // Odd spec: no template. Rendering pod 0 throws (JSON.parse of undefined) and the original answers 500, changing
    // nothing; the port keeps every child as last applied and stalls (docs/examples.md).
    @Test
    @Tag("differs")
    void aSpecWithoutATemplateChangesNothing() {
        ObjectNode parent = parent();
        parent.withObjectProperty("spec").remove("template");
        Answer answer = sync(V1, parent, ready(pod(0)), claim(0), claim(1), claim(2));
        assertStalledKeepingEverything(with(claims(0, 1, 2), pod(0)), "InvalidSpec", answer, NAMESPACE);
    }

    private static Answer sync(HookTester tester, ObjectNode parent, ObjectNode... observed) {
        return observing(tester.sync(object(parent)), observed).call();
    }

    private static Answer finalize(HookTester tester, ObjectNode parent, ObjectNode... observed) {
        return observing(tester.finalize(object(parent)), observed).call();
    }

    private static HookCall observing(HookCall call, ObjectNode... observed) {
        for (ObjectNode child : observed) {
            call.observing(object(child));
        }
        return call;
    }

    private static void assertOrder(String... pods) {
        assertEquals(List.of(pods), CONTROLLER.pods, "the pods in the order the controller answers them");
    }

    private static ObjectNode parent() {
        return OriginalAnswers.manifest("examples/catset/my-catset.yaml");
    }

    /** newPod: the template, named and with hostname {@code <name>-<n>}, subdomain serviceName, a volume per claim template. */
    private static ObjectNode pod(int ordinal, String image) {
        String name = "nginx-backend-" + ordinal;
        ObjectNode pod = parent().get("spec").get("template").deepCopy();
        pod.put("apiVersion", "v1").put("kind", "Pod");
        pod.withObjectProperty("metadata").put("name", name);
        ObjectNode spec = pod.withObjectProperty("spec").put("hostname", name).put("subdomain", "nginx-backend");
        ((ObjectNode) spec.at("/containers/0")).put("image", image);
        spec.putArray("volumes").addObject().put("name", "www").putObject("persistentVolumeClaim").put("claimName", "www-" + name);
        return pod;
    }

    private static ObjectNode pod(int ordinal) {
        return pod(ordinal, IMAGE);
    }

    /** newPVC: the claim template under the name {@code <template>-<catset>-<n>}. */
    private static ObjectNode claim(int ordinal) {
        ObjectNode claim = parent().at("/spec/volumeClaimTemplates/0").deepCopy();
        claim.put("apiVersion", "v1").put("kind", "PersistentVolumeClaim");
        claim.withObjectProperty("metadata").put("name", "www-nginx-backend-" + ordinal);
        return claim;
    }

    private static List<JsonNode> claims(int... ordinals) {
        List<JsonNode> claims = new ArrayList<>();
        for (int ordinal : ordinals) {
            claims.add(claim(ordinal));
        }
        return claims;
    }

    private static List<JsonNode> with(List<JsonNode> claims, ObjectNode... pods) {
        List<JsonNode> children = new ArrayList<>(claims);
        children.addAll(List.of(pods));
        return children;
    }

    private static ObjectNode ready(ObjectNode pod) {
        pod.set("status", json("{'phase':'Running','conditions':[{'type':'Ready','status':'True'}]}"));
        return pod;
    }

    private static ObjectNode pending(ObjectNode pod) {
        pod.set("status", json("{'phase':'Pending','conditions':[{'type':'Ready','status':'False'}]}"));
        return pod;
    }

    private static JsonNode number(int value) {
        return Json.tree(value);
    }
}
