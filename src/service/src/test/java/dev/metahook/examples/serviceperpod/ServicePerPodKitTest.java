package dev.metahook.examples.serviceperpod;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.metahook.api.Controllers;
import dev.metahook.examples.Examples;
import dev.metahook.testkit.Answer;
import dev.metahook.testkit.HookTester;
import dev.metahook.testkit.Manifests;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Both service-per-pod decorators through the test kit. */
class ServicePerPodKitTest {
    private static final Controllers EXAMPLES = Examples.addTo(Controllers.builder()).build();
    private static final HookTester SERVICES = HookTester.of(EXAMPLES, "service-per-pod", Path.of("examples/service-per-pod/controller.yaml"));
    private static final HookTester LABELS = HookTester.of(EXAMPLES, "pod-name-label",
            Path.of("examples/service-per-pod/pod-name-label-controller.yaml"));

    private static StatefulSet statefulSet() {
        return Manifests.read(Path.of("examples/service-per-pod/my-statefulset.yaml"), StatefulSet.class);
    }

    @Test
    void aServicePerPodSelectingItByName() {
        Answer answer = SERVICES.sync(statefulSet()).call();
        List<Service> services = answer.children(Service.class);
        assertEquals(List.of("nginx-0", "nginx-1", "nginx-2"), services.stream().map(service -> service.getMetadata().getName()).toList());
        assertEquals(Map.of("pod-name", "nginx-1"), services.get(1).getSpec().getSelector());
        assertEquals("port-80", services.get(1).getSpec().getPorts().get(0).getName());
        assertEquals(8080, services.get(1).getSpec().getPorts().get(0).getTargetPort().getIntVal());
        assertTrue(answer.status(Object.class).isEmpty(), "the StatefulSet's status is not the decorator's");
    }

    @Test
    void finalizeTakesTheServicesAwayThenLetsGo() {
        List<Service> services = SERVICES.sync(statefulSet()).call().children(Service.class);
        Answer working = SERVICES.finalize(statefulSet()).observing(services).call();
        assertFalse(working.finalized());
        assertEquals(List.of(), working.children(Service.class));
        assertTrue(SERVICES.finalize(statefulSet()).call().finalized());
    }

    @Test
    void labelsAPodWithItsName() {
        Pod pod = new PodBuilder().withNewMetadata().withName("nginx-2").withNamespace("default")
                .addToAnnotations("pod-name-label", "pod-name").endMetadata().build();
        assertEquals(Map.of("pod-name", "nginx-2"), LABELS.sync(pod).call().labels());
    }

    @Test
    void checkIsCleanThroughAScaleDown() {
        StatefulSet scaled = statefulSet();
        scaled.getSpec().setReplicas(1);
        var report = SERVICES.check(statefulSet(), scaled);
        assertTrue(report.clean(), report.toString());
    }
}
