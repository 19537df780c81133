package dev.metahook.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.metahook.internal.wire.CanonicalJson;
import dev.metahook.internal.wire.Json;
import dev.metahook.internal.wire.LastAppliedConfiguration;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;

/**
 * Objects as the API server stores them and Metacontroller observes them, just enough to build
 * realistic requests: a desired child becomes an observed one with the controller-uid label, the
 * last-applied annotation, server metadata, the owner reference and a status the test chooses.
 */
public final class StoredObjects {
    private static final YAMLMapper YAML = new YAMLMapper();

    private StoredObjects() {
    }

    /** A YAML file of the repository (first document) as JSON. */
    public static ObjectNode manifest(String path) {
        try {
            return (ObjectNode) Json.parse(Json.mapper().writeValueAsBytes(YAML.readTree(Files.readString(Path.of(path)))));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The parent as the API server stores it after creation: uid, generation, finalizer, defaults applied by the test. */
    public static ObjectNode parent(String manifestPath, String uid, long generation, String finalizer) {
        ObjectNode parent = manifest(manifestPath);
        ObjectNode metadata = parent.withObjectProperty("metadata");
        metadata.put("uid", uid).put("generation", generation).put("resourceVersion", "1000")
                .put("creationTimestamp", "2026-11-29T10:00:00Z");
        if (finalizer != null) {
            metadata.putArray("finalizers").add(finalizer);
        }
        return parent;
    }

    /** The desired child as Metacontroller created it and now observes it, with this status. */
    public static ObjectNode observe(JsonNode desired, JsonNode parent, JsonNode status) {
        ObjectNode applied = desired.deepCopy();
        String parentUid = parent.path("metadata").path("uid").asText();
        applied.withObjectProperty("metadata").withObjectProperty("labels").put("controller-uid", parentUid);
        ObjectNode observed = applied.deepCopy();
        ObjectNode metadata = observed.withObjectProperty("metadata");
        metadata.withObjectProperty("annotations").put(LastAppliedConfiguration.ANNOTATION, CanonicalJson.string(applied));
        metadata.put("uid", UUID.nameUUIDFromBytes(CanonicalJson.bytes(metadata.path("name"))).toString())
                .put("resourceVersion", "2000").put("generation", 1).put("creationTimestamp", "2026-11-29T10:00:01Z");
        metadata.putArray("ownerReferences").addObject()
                .put("apiVersion", parent.path("apiVersion").asText()).put("kind", parent.path("kind").asText())
                .put("name", parent.path("metadata").path("name").asText()).put("uid", parentUid)
                .put("controller", true).put("blockOwnerDeletion", true);
        metadata.putArray("managedFields").addObject().put("manager", "metacontroller").put("operation", "Update");
        if (status != null) {
            observed.set("status", status);
        }
        return observed;
    }

    /** A sync or finalize request for this controller, parent and observed children. */
    public static ObjectNode request(ObjectNode controller, ObjectNode parent, List<ObjectNode> observed, boolean finalizing) {
        ObjectNode request = Json.object();
        request.set("controller", controller);
        request.set("parent", parent);
        ObjectNode children = request.putObject("children");
        for (JsonNode resource : controller.path("spec").path("childResources")) {
            children.putObject(kindOf(resource.path("resource").asText()) + "." + resource.path("apiVersion").asText());
        }
        for (ObjectNode child : observed) {
            children.withObjectProperty(child.path("kind").asText() + "." + child.path("apiVersion").asText())
                    .set(child.path("metadata").path("name").asText(), child);
        }
        request.putObject("related");
        request.put("finalizing", finalizing);
        return request;
    }

    /** JSON from text, for statuses written inline in tests. */
    public static JsonNode json(String text) {
        return Json.parse(text.replace('\'', '"').getBytes(StandardCharsets.UTF_8));
    }

    private static String kindOf(String resource) {
        return switch (resource) {
            case "deployments" -> "Deployment";
            case "services" -> "Service";
            case "secrets" -> "Secret";
            case "statefulsets" -> "StatefulSet";
            case "jobs" -> "Job";
            case "configmaps" -> "ConfigMap";
            default -> throw new IllegalArgumentException("no kind known for " + resource);
        };
    }
}
