package dev.metahook.internal.sim;

import java.util.List;

/**
 * What a check found, typed: the breaches with where each was found, the hook calls, the calls and child writes of
 * each phase of the life, the call rates (null when not measured) and the versions checked
 * ({@code Kubernetes 1.29-1.37, Metacontroller v4.17.2}). The test kit's {@code CheckReport} has the same fields by the same names, so what
 * {@code check --format json} writes from this reads back into it.
 */
public record CheckResult(List<Breach> breaches, int calls, List<Phase> phases, Rates rates, String versions) {

    public CheckResult {
        breaches = List.copyOf(breaches);
        phases = List.copyOf(phases);
    }

    public boolean clean() {
        return breaches.isEmpty();
    }

    /**
     * One breach: its rule, the hook, the object, the phase, which sync or finalize call (0: none alone), the evidence,
     * and the Kubernetes minors it holds on ({@code Kubernetes 1.34-1.37}).
     */
    public record Breach(String kind, String hook, String object, String phase, int call, String message, String versions) {
        @Override
        public String toString() {
            return kind + ": " + message;
        }

        /** The same breach found on other versions too. */
        Breach on(String versions) {
            return new Breach(kind, hook, object, phase, call, message, versions);
        }
    }

    /** One phase of the life: its hook calls and the writes of children (attachments) Metacontroller sent. */
    public record Phase(String name, int calls, int writes) {
    }

    /** Sync and finalize calls in the busiest simulated minute, at rest and while stalled. */
    public record Rates(int atRest, int stalled, String stalledDoing) {
    }
}
