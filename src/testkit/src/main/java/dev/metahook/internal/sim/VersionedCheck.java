package dev.metahook.internal.sim;

import dev.metahook.testkit.CheckReport;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A check run once for each span of Kubernetes minors whose API servers store objects alike, its reports made one:
 * each breach names the minors it holds on ({@code Kubernetes 1.34-1.37}; the Metacontroller release is the one of the
 * whole check, which the report's versions name); the hook calls and child writes of a
 * phase, and the call rates, are the most any of the runs made, as a cluster of that version would make them.
 * Runs find the same breach when they find its kind for the same hook, object and phase (the n-th such in each run):
 * its message may differ in what was measured (how long a call took), and the oldest run's is kept. A {@code too-slow}
 * is the hook's speed measured, not the simulated server's doing: it holds on every version checked, whichever
 * run's calls happened to show it.
 */
public final class VersionedCheck {
    private static final String MEASURED = "too-slow";

    private VersionedCheck() {
    }

    /** {@code check} run on the minor each span is checked on, oldest first, under {@code metacontroller}, and the results merged. */
    public static CheckReport run(List<KubernetesVersion.Span> spans, MetacontrollerVersion metacontroller,
                                  Function<Versions, CheckReport> check) {
        Map<List<Object>, CheckReport.Breach> breaches = new LinkedHashMap<>();
        Map<List<Object>, List<KubernetesVersion.Span>> holdsOn = new LinkedHashMap<>();
        Map<String, int[]> phases = new LinkedHashMap<>();
        CheckReport.Rates rates = null;
        for (KubernetesVersion.Span span : spans) {
            CheckReport result = check.apply(new Versions(span.checkedOn(), metacontroller));
            Map<List<Object>, Integer> seen = new HashMap<>();
            for (CheckReport.Breach breach : result.breaches()) {
                List<Object> where = List.of(breach.kind(), breach.hook(), breach.object(), breach.phase());
                List<Object> key = List.of(where, seen.merge(where, 1, Integer::sum));
                breaches.putIfAbsent(key, breach);
                holdsOn.computeIfAbsent(key, k -> new ArrayList<>()).add(span);
            }
            for (CheckReport.Phase phase : result.phases()) {
                int[] most = phases.computeIfAbsent(phase.name(), name -> new int[2]);
                most[0] = Math.max(most[0], phase.calls());
                most[1] = Math.max(most[1], phase.writes());
            }
            rates = busier(rates, result.rates());
        }
        List<CheckReport.Breach> found = new ArrayList<>();
        breaches.forEach((key, breach) -> found.add(new CheckReport.Breach(breach.kind(), breach.hook(), breach.object(), breach.phase(),
                breach.call(), breach.message(), describe(breach.kind().equals(MEASURED) ? spans : holdsOn.get(key)))));
        List<CheckReport.Phase> counted = new ArrayList<>();
        phases.forEach((name, most) -> counted.add(new CheckReport.Phase(name, most[0], most[1])));
        counted.sort(Comparator.comparing(phase -> phase.name().equals("stalled")));
        int calls = counted.stream().mapToInt(CheckReport.Phase::calls).sum();
        return new CheckReport(found, calls, counted, rates, describe(spans) + ", Metacontroller " + metacontroller);
    }

    private static CheckReport.Rates busier(CheckReport.Rates a, CheckReport.Rates b) {
        if (a == null || b == null) {
            return a == null ? b : a;
        }
        CheckReport.Rates stalled = b.stalled() > a.stalled() ? b : a;
        return new CheckReport.Rates(Math.max(a.atRest(), b.atRest()), stalled.stalled(), stalled.stalledDoing());
    }

    /** {@code Kubernetes 1.29-1.37}, or {@code Kubernetes 1.29-1.31, 1.35-1.37} for spans that do not meet. */
    static String describe(List<KubernetesVersion.Span> spans) {
        List<KubernetesVersion.Span> joined = new ArrayList<>();
        for (KubernetesVersion.Span span : spans) {
            KubernetesVersion.Span last = joined.isEmpty() ? null : joined.get(joined.size() - 1);
            if (last != null && last.last().minor() + 1 == span.first().minor()) {
                joined.set(joined.size() - 1, new KubernetesVersion.Span(last.first(), span.last()));
            } else {
                joined.add(span);
            }
        }
        return "Kubernetes " + String.join(", ", joined.stream().map(KubernetesVersion.Span::toString).toList());
    }
}
