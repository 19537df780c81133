package dev.metahook.internal.sim;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahook.internal.wire.GroupKey;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the simulated API server serves, as its discovery says it: the built-in kinds of Kubernetes 1.29 to 1.37 (each
 * group's GA version), Metacontroller's own CRDs, and the CustomResourceDefinitions given to the check (their served
 * versions). Metacontroller looks every child up here (pkg/dynamic/discovery, v4.17.2): a desired child of a kind it
 * does not find fails the sync ({@code discovery: can't find kind ...}), a declared child resource it does not find
 * keeps the controller from starting.
 */
public final class Discovery {
    /** The built-in kinds by apiVersion, with Metacontroller's CRDs, which are installed with it. */
    private static final Map<String, List<String>> BUILT_IN = Map.ofEntries(
            Map.entry("v1", List.of("Binding", "ComponentStatus", "ConfigMap", "Endpoints", "Event", "LimitRange", "Namespace", "Node",
                    "PersistentVolume", "PersistentVolumeClaim", "Pod", "PodTemplate", "ReplicationController", "ResourceQuota", "Secret",
                    "Service", "ServiceAccount")),
            Map.entry("apps/v1", List.of("ControllerRevision", "DaemonSet", "Deployment", "ReplicaSet", "StatefulSet")),
            Map.entry("batch/v1", List.of("CronJob", "Job")),
            Map.entry("autoscaling/v1", List.of("HorizontalPodAutoscaler")),
            Map.entry("autoscaling/v2", List.of("HorizontalPodAutoscaler")),
            Map.entry("networking.k8s.io/v1", List.of("Ingress", "IngressClass", "NetworkPolicy")),
            Map.entry("policy/v1", List.of("PodDisruptionBudget")),
            Map.entry("rbac.authorization.k8s.io/v1", List.of("ClusterRole", "ClusterRoleBinding", "Role", "RoleBinding")),
            Map.entry("storage.k8s.io/v1", List.of("CSIDriver", "CSINode", "CSIStorageCapacity", "StorageClass", "VolumeAttachment")),
            Map.entry("coordination.k8s.io/v1", List.of("Lease")),
            Map.entry("discovery.k8s.io/v1", List.of("EndpointSlice")),
            Map.entry("events.k8s.io/v1", List.of("Event")),
            Map.entry("scheduling.k8s.io/v1", List.of("PriorityClass")),
            Map.entry("node.k8s.io/v1", List.of("RuntimeClass")),
            Map.entry("certificates.k8s.io/v1", List.of("CertificateSigningRequest")),
            Map.entry("admissionregistration.k8s.io/v1", List.of("MutatingWebhookConfiguration", "ValidatingWebhookConfiguration")),
            Map.entry("apiextensions.k8s.io/v1", List.of("CustomResourceDefinition")),
            Map.entry("apiregistration.k8s.io/v1", List.of("APIService")),
            Map.entry("flowcontrol.apiserver.k8s.io/v1", List.of("FlowSchema", "PriorityLevelConfiguration")),
            Map.entry("metacontroller.k8s.io/v1alpha1", List.of("CompositeController", "DecoratorController", "ControllerRevision")));

    /** Kind by apiVersion and resource: {@code "apps/v1 deployments"} is {@code Deployment}. */
    private final Map<String, String> kinds;

    private Discovery(Map<String, String> kinds) {
        this.kinds = Map.copyOf(kinds);
    }

    /** The built-in kinds, and those of every CustomResourceDefinition among {@code objects} in each version it serves. */
    public static Discovery of(List<? extends JsonNode> objects) {
        Map<String, String> kinds = new LinkedHashMap<>();
        BUILT_IN.forEach((apiVersion, names) -> names.forEach(kind -> kinds.put(apiVersion + " " + GroupKey.guessResource(kind), kind)));
        for (JsonNode object : objects) {
            if (!object.path("kind").asText().equals("CustomResourceDefinition")) {
                continue;
            }
            JsonNode spec = object.path("spec");
            for (JsonNode version : spec.path("versions")) {
                if (version.path("served").asBoolean(true)) {
                    kinds.put(spec.path("group").asText() + "/" + version.path("name").asText() + " " + spec.at("/names/plural").asText(),
                            spec.at("/names/kind").asText());
                }
            }
        }
        return new Discovery(kinds);
    }

    /** Whether a child of this apiVersion and kind can be written ({@code dynClient.Kind} finds it). */
    boolean servesKind(String apiVersion, String kind) {
        return kinds.entrySet().stream().anyMatch(entry -> entry.getValue().equals(kind) && apiVersionOf(entry.getKey()).equals(apiVersion));
    }

    /** Whether a declared resource can be watched ({@code dynClient.Resource} finds it). */
    boolean servesResource(String apiVersion, String resource) {
        return kinds.containsKey(apiVersion + " " + resource);
    }

    /** The apiVersions that serve a kind, for a message: {@code apps/v1} for a Deployment. */
    List<String> versionsOf(String kind) {
        List<String> versions = new ArrayList<>();
        kinds.forEach((key, served) -> {
            if (served.equals(kind)) {
                versions.add(apiVersionOf(key));
            }
        });
        return versions;
    }

    /** The first declared child (or attachment) resource the API server does not serve, as Metacontroller's informer fails on it. */
    Optional<String> unservedResource(ControllerSpec spec) {
        for (ControllerSpec.ChildResource child : spec.childResources()) {
            if (!servesResource(child.apiVersion(), child.resource())) {
                return Optional.of("can't create informer for child resource: can't create client for " + child.resource() + "."
                        + child.apiVersion() + " shared informer: discovery: can't find resource " + child.resource() + " in apiVersion "
                        + child.apiVersion());
            }
        }
        return Optional.empty();
    }

    private static String apiVersionOf(String key) {
        return key.substring(0, key.indexOf(' '));
    }
}
