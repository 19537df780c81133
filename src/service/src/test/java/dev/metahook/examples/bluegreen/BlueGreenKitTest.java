package dev.metahook.examples.bluegreen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.metahook.api.Controllers;
import dev.metahook.examples.Examples;
import dev.metahook.testkit.Answer;
import dev.metahook.testkit.HookTester;
import dev.metahook.testkit.Manifests;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetStatus;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetStatusBuilder;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The bluegreen port through the test kit: typed parents and children in, typed answers out, check's lifecycle. */
class BlueGreenKitTest {
    private static final HookTester TESTER = HookTester.of(Examples.addTo(Controllers.builder()).build(), "bluegreen",
            Path.of("examples/bluegreen/controller.yaml"));

    private static BlueGreenDeployment deployment() {
        return Manifests.read(Path.of("examples/bluegreen/my-bluegreen.yaml"), BlueGreenDeployment.class);
    }

    private static BlueGreenDeployment withLabel(String key, String value) {
        BlueGreenDeployment deployment = deployment();
        deployment.getSpec().template().getMetadata().getLabels().put(key, value);
        return deployment;
    }

    @Test
    void aNewDeploymentRunsBlueAndPointsTheServiceAtIt() {
        Answer answer = TESTER.sync(deployment()).call();
        assertEquals(3, answer.child(ReplicaSet.class, "nginx-blue").orElseThrow().getSpec().getReplicas());
        assertEquals(0, answer.child(ReplicaSet.class, "nginx-green").orElseThrow().getSpec().getReplicas());
        assertEquals("blue", answer.child(Service.class, "nginx-frontend").orElseThrow().getSpec().getSelector().get("color"));
        assertEquals("blue", answer.status(BlueGreenDeployment.Status.class).orElseThrow().activeColor());
    }

    @Test
    void aNewTemplateStartsOnGreenOnlyOnceGreenIsDownToZero() {
        List<ReplicaSet> settled = settled(TESTER.sync(deployment()).call(), 3, 0);
        Service service = TESTER.sync(deployment()).call().child(Service.class, "nginx-frontend").orElseThrow();
        Answer rollout = TESTER.sync(withLabel("release", "two")).observing(settled).observing(service).call();
        ReplicaSet green = rollout.child(ReplicaSet.class, "nginx-green").orElseThrow();
        assertEquals(3, green.getSpec().getReplicas());
        assertEquals("two", green.getSpec().getTemplate().getMetadata().getLabels().get("release"));
        assertEquals("blue", rollout.child(Service.class, "nginx-frontend").orElseThrow().getSpec().getSelector().get("color"));

        List<ReplicaSet> greenStillUp = settled(TESTER.sync(deployment()).call(), 3, 2);
        Answer waits = TESTER.sync(withLabel("release", "two")).observing(greenStillUp).observing(service).call();
        assertEquals(0, waits.child(ReplicaSet.class, "nginx-green").orElseThrow().getSpec().getReplicas(),
                "a rollout in progress is cancelled first");
    }

    @Test
    void checkIsCleanThroughARollout() {
        var report = TESTER.check(deployment(), withLabel("release", "two"));
        assertTrue(report.clean(), report.toString());
    }

    /** The ReplicaSets of an answer as the cluster would hold them once settled: blue with its replicas available, green at this count. */
    private static List<ReplicaSet> settled(Answer answer, int blue, int greenRunning) {
        ReplicaSet blueSet = answer.child(ReplicaSet.class, "nginx-blue").orElseThrow();
        blueSet.setStatus(status(blue));
        ReplicaSet greenSet = answer.child(ReplicaSet.class, "nginx-green").orElseThrow();
        greenSet.setStatus(status(greenRunning));
        return List.of(blueSet, greenSet);
    }

    private static ReplicaSetStatus status(int replicas) {
        return new ReplicaSetStatusBuilder().withReplicas(replicas).withReadyReplicas(replicas).withAvailableReplicas(replicas)
                .withObservedGeneration(1L).build();
    }
}
