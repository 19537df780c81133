package dev.metahook.internal.sim;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahook.internal.wire.GroupKey;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Which kind a declared resource holds ({@code deployments} holds {@code Deployment}), as API
 * discovery would say: the built-in kinds are known, others are learned from the objects seen.
 */
final class ResourceKinds {
    /** The built-in kinds, by resource name: the model's plural of each. */
    private static final Map<String, String> BUILT_IN = Stream.of("Pod", "Service", "Secret", "ConfigMap", "PersistentVolumeClaim",
                    "ServiceAccount", "Namespace", "Endpoints", "Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "Job", "CronJob",
                    "Ingress", "NetworkPolicy", "PodDisruptionBudget", "Role", "RoleBinding", "ClusterRole", "ClusterRoleBinding",
                    "HorizontalPodAutoscaler")
            .collect(Collectors.toUnmodifiableMap(GroupKey::guessResource, kind -> kind));

    private final Map<String, String> learned = new HashMap<>();

    /** The kind of a resource, or null while unknown. */
    String kind(String apiVersion, String resource) {
        String kind = learned.get(apiVersion + " " + resource);
        return kind != null ? kind : BUILT_IN.get(resource);
    }

    /** The group keys of the declared child (or attachment) types whose kind is known so far. */
    List<GroupKey> declaredGroups(ControllerSpec spec) {
        List<GroupKey> groups = new ArrayList<>();
        for (ControllerSpec.ChildResource child : spec.childResources()) {
            String kind = kind(child.apiVersion(), child.resource());
            if (kind != null) {
                groups.add(new GroupKey(kind, child.apiVersion()));
            }
        }
        return groups;
    }

    /** Remembers the kind of an object as the resource its kind's plural names. */
    void learn(JsonNode object) {
        String kind = object.path("kind").asText();
        if (!kind.isEmpty()) {
            learned.putIfAbsent(object.path("apiVersion").asText() + " " + GroupKey.guessResource(kind), kind);
        }
    }


    /** The resource name of a kind: its plural as the Kubernetes model spells it. */
    static String resourceOf(String kind) {
        return GroupKey.guessResource(kind);
    }
}
