package dev.metahook.internal.sim;

/**
 * A change in how the API server stores built-in objects, between the Kubernetes minors {@code check} supports, that
 * the simulated API server models: the minor it first holds on and where it is written down. Each is read from the
 * Kubernetes source at the tags on either side of it, and listed once in docs/testing-hooks.md.
 */
public enum StorageChange {
    /**
     * The zero {@code creationTimestamp} of an embedded ObjectMeta (a pod template's, a claim template's, a CronJob's
     * {@code jobTemplate}'s) is left out instead of written as {@code null}: {@code metav1.ObjectMeta.CreationTimestamp}
     * is tagged {@code omitzero} from k8s.io/apimachinery v0.34.0 on (v0.33.13 still only {@code omitempty}, which
     * Go's encoder never applies to a struct).
     */
    NO_NULL_CREATION_TIMESTAMP(34, "kubernetes/kubernetes#130989"),
    /**
     * A StatefulSet's {@code updateStrategy.rollingUpdate.maxUnavailable} is defaulted to 1: {@code SetDefaults_StatefulSet}
     * (pkg/apis/apps/v1/defaults.go) writes it only while the feature gate {@code MaxUnavailableStatefulSet} is on,
     * which pkg/features/kube_features.go of v1.37.2 turns on by default from 1.37 (alpha from 1.24 and beta from 1.35,
     * both off by default). Measured: a real v1.29.15 stores no {@code maxUnavailable}, v1.37.2 stores 1.
     */
    STATEFULSET_MAX_UNAVAILABLE(37, "kubernetes/enhancements#961");

    private final int since;
    private final String reference;

    StorageChange(int since, String reference) {
        this.since = since;
        this.reference = reference;
    }

    /** The first minor (of Kubernetes 1.x) that stores objects this way. */
    public int since() {
        return since;
    }

    /** The pull request or release note that made the change. */
    public String reference() {
        return reference;
    }
}
