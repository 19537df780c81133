package dev.metahook.sim;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahook.wire.GroupKey;
import java.util.HashMap;
import java.util.Map;

/**
 * Which kind a declared resource holds ({@code deployments} holds {@code Deployment}), as API
 * discovery would say: the built-in kinds are known, others are learned from the objects seen.
 */
final class ResourceKinds {
    private static final Map<String, String> BUILT_IN = Map.ofEntries(
            Map.entry("pods", "Pod"), Map.entry("services", "Service"), Map.entry("secrets", "Secret"),
            Map.entry("configmaps", "ConfigMap"), Map.entry("persistentvolumeclaims", "PersistentVolumeClaim"),
            Map.entry("serviceaccounts", "ServiceAccount"), Map.entry("namespaces", "Namespace"), Map.entry("endpoints", "Endpoints"),
            Map.entry("deployments", "Deployment"), Map.entry("statefulsets", "StatefulSet"), Map.entry("daemonsets", "DaemonSet"),
            Map.entry("replicasets", "ReplicaSet"), Map.entry("jobs", "Job"), Map.entry("cronjobs", "CronJob"),
            Map.entry("ingresses", "Ingress"), Map.entry("networkpolicies", "NetworkPolicy"),
            Map.entry("poddisruptionbudgets", "PodDisruptionBudget"), Map.entry("roles", "Role"), Map.entry("rolebindings", "RoleBinding"),
            Map.entry("clusterroles", "ClusterRole"), Map.entry("clusterrolebindings", "ClusterRoleBinding"),
            Map.entry("horizontalpodautoscalers", "HorizontalPodAutoscaler"));

    private final Map<String, String> learned = new HashMap<>();

    /** The kind of a resource, or null while unknown. */
    String kind(String apiVersion, String resource) {
        String kind = learned.get(apiVersion + " " + resource);
        return kind != null ? kind : BUILT_IN.get(resource);
    }

    /** The group keys of the declared child (or attachment) types whose kind is known so far. */
    java.util.List<GroupKey> declaredGroups(ControllerSpec spec) {
        java.util.List<GroupKey> groups = new java.util.ArrayList<>();
        for (ControllerSpec.ChildResource child : spec.childResources()) {
            String kind = kind(child.apiVersion(), child.resource());
            if (kind != null) {
                groups.add(new GroupKey(kind, child.apiVersion()));
            }
        }
        return groups;
    }

    /** Remembers the kind of an object whose plural, guessed the way Kubernetes guesses, is the resource. */
    void learn(JsonNode object) {
        String kind = object.path("kind").asText();
        if (!kind.isEmpty()) {
            learned.putIfAbsent(object.path("apiVersion").asText() + " " + GroupKey.guessResource(kind), kind);
        }
    }


    /** The plural of a kind as the built-in table or the guess says. */
    static String resourceOf(String kind) {
        return BUILT_IN.entrySet().stream().filter(e -> e.getValue().equals(kind)).map(Map.Entry::getKey).findFirst()
                .orElse(GroupKey.guessResource(kind));
    }
}
