package dev.metahook.examples.serviceperpod;

import static dev.metahook.examples.OriginalAnswers.assertChildren;
import static dev.metahook.examples.OriginalAnswers.body;
import static dev.metahook.examples.OriginalAnswers.object;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.examples.OriginalAnswers;
import dev.metahook.testkit.Answer;
import dev.metahook.testkit.HookCall;
import dev.metahook.testkit.HookTester;
import dev.metahook.internal.wire.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Both service-per-pod decorators answer as Metacontroller's
 * {@code examples/service-per-pod/manifest/*.jsonnet} do. Every expectation below is worked out from
 * that source: {@code sync-service-per-pod} makes a Service {@code <name>-<i>} for each i in
 * {@code std.range(0, spec.replicas - 1)}, labelled {@code app: service-per-pod}, selecting
 * {@code <label key>: <name>-<i>}, with a port per comma-separated entry: the entry split at colons,
 * {@code port} and {@code targetPort} the first two parts through {@code std.parseInt} (digits only),
 * named {@code port-<port>}; {@code finalize-service-per-pod} answers no attachments and is finalized
 * once no Service is observed; {@code sync-pod-name-label} labels the pod with its name under the key
 * its annotation names. None of them sets a status. Where Jsonnet fails (an error, so Metacontroller
 * changes nothing), the port keeps the Services as last applied (docs/examples.md).
 */
class ServicePerPodOriginalTest {
    private static final HookTester V1 = OriginalAnswers.v1("service-per-pod", "examples/service-per-pod/controller.yaml");
    private static final HookTester V2 = OriginalAnswers.v2("service-per-pod", "examples/service-per-pod/controller.yaml");
    private static final HookTester LABELS = OriginalAnswers.v1("pod-name-label", "examples/service-per-pod/pod-name-label-controller.yaml");
    private static final HookTester LABELS_V2 = OriginalAnswers.v2("pod-name-label", "examples/service-per-pod/pod-name-label-controller.yaml");
    private static final String NAMESPACE = "default";

    // replicas 3, "80:8080": Services nginx-0..2, one port each; no status.
    @Test
    void aServicePerPod() {
        Answer answer = sync(V1, statefulSet(3, "80:8080"));
        assertChildren(services(3, "pod-name", 80, 8080), answer, NAMESPACE);
        assertFalse(body(answer).hasNonNull("status"), "a decorator that says nothing of the status");
    }

    // The hook never reads attachments' keys: v2 gets the same Services.
    @Test
    void v2KeysGetTheSameServices() {
        Answer answer = sync(V2, statefulSet(3, "80:8080"), service(0, "pod-name", 80, 8080));
        assertChildren(services(3, "pod-name", 80, 8080), answer, NAMESPACE);
    }

    // "80:8080,9090:9090": two ports per Service, in that order.
    @Test
    void aPortPerEntry() {
        Answer answer = sync(V1, statefulSet(2, "80:8080,9090:9090"));
        assertChildren(services(2, "pod-name", 80, 8080, 9090, 9090), answer, NAMESPACE);
    }

    // "80:8080:9090": parts[0] and parts[1] are read, the third part is never looked at.
    @Test
    void aThirdPartIsIgnored() {
        Answer answer = sync(V1, statefulSet(2, "80:8080:9090"));
        assertChildren(services(2, "pod-name", 80, 8080), answer, NAMESPACE);
    }

    // "080:08080": std.parseInt reads leading zeros as digits: 80 to 8080, named port-80.
    @Test
    void leadingZerosAreDigits() {
        Answer answer = sync(V1, statefulSet(1, "080:08080"));
        assertChildren(services(1, "pod-name", 80, 8080), answer, NAMESPACE);
    }

    // replicas 0: std.range(0, -1) is empty, so no Service.
    @Test
    void zeroReplicasNoServices() {
        Answer answer = sync(V1, statefulSet(0, "80:8080"));
        assertChildren(List.of(), answer, NAMESPACE);
    }

    // Scaled from 3 to 1: only nginx-0 is answered, so Metacontroller deletes the other two.
    @Test
    void aScaleDownTakesTheServicesOfThePodsThatWent() {
        Answer answer = sync(V1, statefulSet(1, "80:8080"), service(0, "pod-name", 80, 8080), service(1, "pod-name", 80, 8080),
                service(2, "pod-name", 80, 8080));
        assertChildren(services(1, "pod-name", 80, 8080), answer, NAMESPACE);
    }

    // One Service observed of three: all three are answered.
    @Test
    void missingServicesAreMade() {
        Answer answer = sync(V1, statefulSet(3, "80:8080"), service(1, "pod-name", 80, 8080));
        assertChildren(services(3, "pod-name", 80, 8080), answer, NAMESPACE);
    }

    // Another label key: every selector follows it.
    @Test
    void aNewLabelKeyChangesEverySelector() {
        ObjectNode target = statefulSet(2, "80:8080");
        target.withObjectProperty("metadata").withObjectProperty("annotations").put("service-per-pod-label", "statefulset.kubernetes.io/pod-name");
        Answer answer = sync(V1, target, service(0, "pod-name", 80, 8080), service(1, "pod-name", 80, 8080));
        assertChildren(services(2, "statefulset.kubernetes.io/pod-name", 80, 8080), answer, NAMESPACE);
    }

    // Finalize with Services left: no attachments, finalized false (std.length of the observed group is 2).
    @Test
    void finalizeAsksForNoServicesUntilNoneIsLeft() {
        Answer answer = finalize(V1, statefulSet(2, "80:8080"), service(0, "pod-name", 80, 8080), service(1, "pod-name", 80, 8080));
        assertChildren(List.of(), answer, NAMESPACE);
        assertFalse(answer.finalized());
    }

    // The same under v2 keys.
    @Test
    void finalizeUnderV2KeysIsAnsweredAlike() {
        Answer answer = finalize(V2, statefulSet(2, "80:8080"), service(1, "pod-name", 80, 8080));
        assertChildren(List.of(), answer, NAMESPACE);
        assertFalse(answer.finalized());
    }

    // Finalize with none observed: finalized.
    @Test
    void finalizeIsDoneOnceNoServiceIsLeft() {
        Answer answer = finalize(V1, statefulSet(2, "80:8080"));
        assertChildren(List.of(), answer, NAMESPACE);
        assertTrue(answer.finalized());
    }

    // Odd annotations, each of which makes the Jsonnet fail: "80" (parts[1] out of bounds), "80: 8080" (a space is
    // not a digit), "80:8080," (an empty entry), "http:8080" (not an integer). The original errors and nothing
    // changes; the port answers the observed Services as last applied.
    @Test
    @Tag("differs")
    void annotationsTheOriginalFailsOnChangeNothing() {
        for (String ports : List.of("80", "80: 8080", "80:8080,", "http:8080")) {
            Answer answer = sync(V1, statefulSet(3, ports), service(0, "pod-name", 80, 8080), service(1, "pod-name", 80, 8080));
            assertChildren(List.of(service(0, "pod-name", 80, 8080), service(1, "pod-name", 80, 8080)), answer, NAMESPACE);
        }
    }

    // "0:8080": the original writes port 0, which the API server refuses (so its sync fails and nothing changes);
    // the port refuses it first and keeps the Services as they are (docs/examples.md).
    @Test
    @Tag("differs")
    void aPortTheApiServerRefusesChangesNothing() {
        Answer answer = sync(V1, statefulSet(1, "0:8080"), service(0, "pod-name", 80, 8080));
        assertChildren(List.of(service(0, "pod-name", 80, 8080)), answer, NAMESPACE);
    }

    // No spec.replicas: the Jsonnet fails on `statefulset.spec.replicas - 1`; the port reads 1, as the API server
    // defaults a StatefulSet's replicas (docs/examples.md), and answers the one Service.
    @Test
    @Tag("differs")
    void aStatefulSetWithoutReplicasIsReadAsTheApiServerDefaultsIt() {
        ObjectNode target = statefulSet(3, "80:8080");
        target.withObjectProperty("spec").remove("replicas");
        Answer answer = sync(V1, target);
        assertChildren(services(1, "pod-name", 80, 8080), answer, NAMESPACE);
    }

    // sync-pod-name-label: labels {[annotation]: metadata.name}, nothing else.
    @Test
    void aPodIsLabelledWithItsName() {
        Answer answer = LABELS.sync(object(pod("nginx-2", "pod-name"))).call();
        assertEquals(Map.of("pod-name", "nginx-2"), answer.labels());
        assertFalse(body(answer).hasNonNull("status"));
    }

    // Under the key its annotation names.
    @Test
    void theLabelKeyIsTheAnnotations() {
        Answer answer = LABELS.sync(object(pod("web-0", "example.com/pod"))).call();
        assertEquals(Map.of("example.com/pod", "web-0"), answer.labels());
    }

    // An empty annotation: the original labels the pod under the key "", which the API server refuses (the sync fails
    // on every call); the port adds no label.
    @Test
    @Tag("differs")
    void anEmptyLabelKeyAddsNoLabel() {
        Answer answer = LABELS.sync(object(pod("nginx-0", ""))).call();
        assertEquals(200, answer.code(), answer::toString);
        assertEquals(Map.of(), answer.labels());
    }

    // v2 changes nothing for a hook that reads only the pod.
    @Test
    void podLabelsUnderV2AreAlike() {
        Answer answer = LABELS_V2.sync(object(pod("nginx-0", "pod-name"))).call();
        assertEquals(Map.of("pod-name", "nginx-0"), answer.labels());
    }

    private static Answer sync(HookTester tester, ObjectNode target, ObjectNode... observed) {
        return observing(tester.sync(object(target)), observed).call();
    }

    private static Answer finalize(HookTester tester, ObjectNode target, ObjectNode... observed) {
        return observing(tester.finalize(object(target)), observed).call();
    }

    private static HookCall observing(HookCall call, ObjectNode... observed) {
        for (ObjectNode child : observed) {
            call.observing(object(child));
        }
        return call;
    }

    private static ObjectNode statefulSet(int replicas, String ports) {
        ObjectNode target = OriginalAnswers.manifest("examples/service-per-pod/my-statefulset.yaml");
        target.withObjectProperty("spec").put("replicas", replicas);
        target.withObjectProperty("metadata").withObjectProperty("annotations").put("service-per-pod-ports", ports);
        return target;
    }

    private static ObjectNode pod(String name, String labelKey) {
        ObjectNode pod = Json.object().put("apiVersion", "v1").put("kind", "Pod");
        pod.putObject("metadata").put("name", name).put("namespace", NAMESPACE).putObject("annotations").put("pod-name-label", labelKey);
        return pod;
    }

    /** The Service sync-service-per-pod writes for pod {@code nginx-<ordinal>}; ports as port, targetPort pairs. */
    private static ObjectNode service(int ordinal, String labelKey, int... ports) {
        ObjectNode service = Json.object().put("apiVersion", "v1").put("kind", "Service");
        service.putObject("metadata").put("name", "nginx-" + ordinal).putObject("labels").put("app", "service-per-pod");
        ObjectNode spec = service.putObject("spec");
        spec.putObject("selector").put(labelKey, "nginx-" + ordinal);
        ArrayNode list = spec.putArray("ports");
        for (int i = 0; i < ports.length; i += 2) {
            list.addObject().put("name", "port-" + ports[i]).put("port", ports[i]).put("targetPort", ports[i + 1]);
        }
        return service;
    }

    private static List<JsonNode> services(int replicas, String labelKey, int... ports) {
        List<JsonNode> services = new ArrayList<>();
        for (int ordinal = 0; ordinal < replicas; ordinal++) {
            services.add(service(ordinal, labelKey, ports));
        }
        return services;
    }
}
