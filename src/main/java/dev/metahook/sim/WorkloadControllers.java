package dev.metahook.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.wire.Json;

/**
 * Plays the cluster's other controllers and the kubelet: every Deployment, StatefulSet, ReplicaSet
 * and DaemonSet gets all its replicas ready, every Job succeeds (unless a test marked it failed),
 * every Pod runs and is ready. Status only, as the real ones write it; zero counts left out where
 * the API server leaves them out.
 */
public final class WorkloadControllers {
    private WorkloadControllers() {
    }

    /** Brings every workload in the store to its settled status. */
    public static void settle(Cluster store) {
        for (ObjectNode object : store.all()) {
            JsonNode status = settled(object);
            if (status != null) {
                store.setStatus(ObjectRef.of(object), status);
            }
        }
    }

    static JsonNode settled(ObjectNode object) {
        long generation = object.path("metadata").path("generation").asLong(1);
        int replicas = object.path("spec").path("replicas").asInt(1);
        return switch (object.path("kind").asText()) {
            case "Deployment" -> replicas(generation, replicas, "updatedReplicas", "readyReplicas", "availableReplicas");
            // their status.replicas has no omitempty: the API server writes 0 rather than leave it out
            case "StatefulSet" -> replicas(generation, replicas, "currentReplicas", "updatedReplicas", "readyReplicas").put("replicas", replicas);
            case "ReplicaSet" -> replicas(generation, replicas, "fullyLabeledReplicas", "readyReplicas", "availableReplicas").put("replicas", replicas);
            case "Job" -> failed(object) ? null : Json.object().put("succeeded", 1).set("conditions",
                    Json.mapper().createArrayNode().add(Json.object().put("type", "Complete").put("status", "True")));
            case "Pod" -> Json.object().put("phase", "Running").set("conditions",
                    Json.mapper().createArrayNode().add(Json.object().put("type", "Ready").put("status", "True")));
            default -> null;
        };
    }

    private static ObjectNode replicas(long generation, int replicas, String... counts) {
        ObjectNode status = Json.object().put("observedGeneration", generation);
        if (replicas > 0) {
            status.put("replicas", replicas);
            for (String count : counts) {
                status.put(count, replicas);
            }
        }
        return status;
    }

    private static boolean failed(JsonNode job) {
        for (JsonNode condition : job.path("status").path("conditions")) {
            if ("Failed".equals(condition.path("type").asText()) && "True".equals(condition.path("status").asText())) {
                return true;
            }
        }
        return false;
    }
}
