package dev.metahook.examples.catset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.metahook.api.Controllers;
import dev.metahook.examples.Examples;
import dev.metahook.testkit.Answer;
import dev.metahook.testkit.HookTester;
import dev.metahook.testkit.Manifests;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The catset port through the test kit. */
class CatSetKitTest {
    private static final HookTester TESTER = HookTester.of(Examples.addTo(Controllers.builder()).build(), "catset",
            Path.of("examples/catset/controller.yaml"));

    private static CatSet catSet() {
        return Manifests.read(Path.of("examples/catset/my-catset.yaml"), CatSet.class);
    }

    @Test
    void startsWithTheFirstOrdinalAndEveryClaim() {
        Answer answer = TESTER.sync(catSet()).call();
        assertEquals(List.of("nginx-backend-0"), answer.children(Pod.class).stream().map(pod -> pod.getMetadata().getName()).toList());
        assertEquals(3, answer.children(PersistentVolumeClaim.class).size());
        assertEquals(new CatSet.Status(0, 0), answer.status(CatSet.Status.class).orElseThrow());
    }

    @Test
    void finalizeRemovesTheHighestPodFirstAndIsDoneWhenNoneIsLeft() {
        Pod zero = ready(TESTER.sync(catSet()).call().child(Pod.class, "nginx-backend-0").orElseThrow());
        Pod one = ready(TESTER.sync(catSet()).observing(zero).call().child(Pod.class, "nginx-backend-1").orElseThrow());
        Answer first = TESTER.finalize(catSet()).observing(zero, one).call();
        assertFalse(first.finalized());
        assertEquals(List.of("nginx-backend-0"), first.children(Pod.class).stream().map(pod -> pod.getMetadata().getName()).toList());
        assertEquals(new CatSet.Status(2, 0), first.status(CatSet.Status.class).orElseThrow());
        Answer done = TESTER.finalize(catSet()).call();
        assertTrue(done.finalized());
    }

    @Test
    void checkIsCleanThroughANewImage() {
        CatSet updated = catSet();
        updated.getSpec().template().getSpec().getContainers().get(0).setImage("nginxinc/nginx-unprivileged:1.28-alpine");
        var report = TESTER.withMetacontrollerVersion("v4.10.2").check(catSet(), updated);
        assertTrue(report.clean(), report.toString());
        // the newest Metacontroller stalls the same rollout after its first pod, which is reported as its own finding
        var stalled = TESTER.check(catSet(), updated);
        assertEquals(List.of("metacontroller-stalls-rollout"), stalled.breaches().stream().map(breach -> breach.kind()).toList(),
                stalled.toString());
    }

    private static Pod ready(Pod pod) {
        pod.setStatus(new PodStatusBuilder().withPhase("Running").addNewCondition().withType("Ready").withStatus("True").endCondition().build());
        return pod;
    }
}
