package dev.metahook.controllers.database;

import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import java.util.Optional;

/**
 * A running Database's phase, from the observed StatefulSet and the phase reported before.
 * {@code Pending} means no StatefulSet was ever observed, so nothing was ever stored: once one was,
 * a missing StatefulSet is {@code Provisioning} again ({@code StatefulSetMissing}), and the teardown
 * relies on that to skip the final backup only when there can be no data.
 */
enum Phase {
    PENDING("Pending", "Pending", false, true, "waiting for the StatefulSet to be created"),
    MISSING("Provisioning", "StatefulSetMissing", false, true,
            "the StatefulSet is gone and is being created again; its claim keeps the data"),
    PROVISIONING("Provisioning", "Provisioning", false, true, "waiting for the primary to become ready"),
    READY("Ready", "PrimaryReady", true, false, "the primary is ready"),
    DEGRADED("Degraded", "PrimaryNotReady", false, false, "the primary was ready and is not ready now");

    final String phase;
    final String reason;
    final boolean ready;
    final boolean reconciling;
    final String message;

    Phase(String phase, String reason, boolean ready, boolean reconciling, String message) {
        this.phase = phase;
        this.reason = reason;
        this.ready = ready;
        this.reconciling = reconciling;
        this.message = message;
    }

    static Phase of(Optional<StatefulSet> observed, String previousPhase) {
        if (observed.isEmpty()) {
            return previousPhase == null || PENDING.phase.equals(previousPhase) ? PENDING : MISSING;
        }
        if (primaryReady(observed.get())) {
            return READY;
        }
        return "Ready".equals(previousPhase) || "Degraded".equals(previousPhase) ? DEGRADED : PROVISIONING;
    }

    private static boolean primaryReady(StatefulSet statefulSet) {
        if (statefulSet.getStatus() == null) {
            return false;
        }
        long generation = statefulSet.getMetadata().getGeneration() == null ? 0 : statefulSet.getMetadata().getGeneration();
        Long observedGeneration = statefulSet.getStatus().getObservedGeneration();
        Integer readyReplicas = statefulSet.getStatus().getReadyReplicas();
        return readyReplicas != null && readyReplicas >= 1 && observedGeneration != null && observedGeneration >= generation;
    }
}
