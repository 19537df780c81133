package dev.metahook.internal.sim;

/** The versions a simulation plays: the API server's Kubernetes and the Metacontroller that calls the hook. */
public record Versions(KubernetesVersion kubernetes, MetacontrollerVersion metacontroller) {
    public static final Versions NEWEST = new Versions(KubernetesVersion.NEWEST, MetacontrollerVersion.NEWEST);

    /** {@code Kubernetes 1.37, Metacontroller v4.17.2}. */
    @Override
    public String toString() {
        return "Kubernetes " + kubernetes + ", Metacontroller " + metacontroller;
    }
}
