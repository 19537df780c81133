package dev.metahook.internal.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.metahook.testkit.CheckReport;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** One report from the runs on each span of Kubernetes minors: each breach with the minors it holds on. */
class VersionedCheckTest {
    private static final KubernetesVersion OLD = new KubernetesVersion(29);
    private static final KubernetesVersion NEW = new KubernetesVersion(37);
    /** Two spans, checked on OLD and NEW: how runs merge does not depend on where the model cuts the minors today. */
    private static final List<KubernetesVersion.Span> TWO_SPANS = List.of(new KubernetesVersion.Span(OLD, new KubernetesVersion(33)),
            new KubernetesVersion.Span(new KubernetesVersion(34), NEW));

    private static CheckReport.Breach breach(String kind, String phase, String message) {
        return new CheckReport.Breach(kind, "sync", "StatefulSet default/db", phase, 3, message, "");
    }

    private static CheckReport result(List<CheckReport.Breach> breaches, int atRest, CheckReport.Phase... phases) {
        return new CheckReport(breaches, 0, List.of(phases), new CheckReport.Rates(atRest, 0, "deleting"), "");
    }

    @Test
    void aBreachOfOneSpanNamesItsMinorsAndOneOfBothNamesThemAll() {
        Map<KubernetesVersion, CheckReport> runs = Map.of(
                OLD, result(List.of(breach("needless-update", "create", "(null vs absent)"), breach("hot-loop", "converge", "a")), 0),
                NEW, result(List.of(breach("hot-loop", "converge", "a")), 0));
        CheckReport merged = VersionedCheck.run(TWO_SPANS, MetacontrollerVersion.NEWEST, versions -> runs.get(versions.kubernetes()));
        assertEquals(List.of("needless-update Kubernetes 1.29-1.33", "hot-loop Kubernetes 1.29-1.37"),
                merged.breaches().stream().map(breach -> breach.kind() + " " + breach.versions()).toList());
        assertEquals("Kubernetes 1.29-1.37, Metacontroller v4.17.2", merged.versions());
    }

    @Test
    void theSameBreachMeasuredDifferentlyIsOneBreachWithTheOldestRunsMessage() {
        Map<KubernetesVersion, CheckReport> runs = Map.of(
                OLD, result(List.of(breach("too-slow", "create", "sync took 1102 ms")), 0),
                NEW, result(List.of(breach("too-slow", "create", "sync took 1107 ms"), breach("too-slow", "repeat", "sync took 1101 ms")), 0));
        CheckReport merged = VersionedCheck.run(TWO_SPANS, MetacontrollerVersion.NEWEST, versions -> runs.get(versions.kubernetes()));
        assertEquals(List.of("create sync took 1102 ms Kubernetes 1.29-1.37", "repeat sync took 1101 ms Kubernetes 1.29-1.37"),
                merged.breaches().stream().map(breach -> breach.phase() + " " + breach.message() + " " + breach.versions()).toList());
    }

    @Test
    void theCountsOfAPhaseAreTheMostAnyRunMade() {
        Map<KubernetesVersion, CheckReport> runs = Map.of(
                OLD, result(List.of(), 2, new CheckReport.Phase("create", 3, 2), new CheckReport.Phase("at rest", 12, 12)),
                NEW, result(List.of(), 0, new CheckReport.Phase("create", 3, 2), new CheckReport.Phase("at rest", 0, 0),
                        new CheckReport.Phase("stalled", 1, 0)));
        CheckReport merged = VersionedCheck.run(TWO_SPANS, MetacontrollerVersion.NEWEST, versions -> runs.get(versions.kubernetes()));
        assertEquals(List.of(new CheckReport.Phase("create", 3, 2), new CheckReport.Phase("at rest", 12, 12),
                new CheckReport.Phase("stalled", 1, 0)), merged.phases());
        assertEquals(16, merged.calls());
        assertEquals(2, merged.rates().atRest());
    }

    @Test
    void oneMinorAloneIsNamedAlone() {
        CheckReport merged = VersionedCheck.run(List.of(KubernetesVersion.Span.of(new KubernetesVersion(32))),
                MetacontrollerVersion.parse("v4.10.2"), versions -> result(List.of(breach("needless-update", "create", "x")), 0));
        assertEquals("Kubernetes 1.32, Metacontroller v4.10.2", merged.versions());
        assertEquals("Kubernetes 1.32", merged.breaches().get(0).versions());
    }
}
