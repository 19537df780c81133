package dev.metahook.manifests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.metahook.api.CustomResource;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import org.junit.jupiter.api.Test;

/**
 * A spec typed {@code Object} (read as a map or a tree) is an object of any fields: its CRD keeps them
 * ({@code x-kubernetes-preserve-unknown-fields}) rather than letting the API server prune the whole spec.
 */
class OpenSpecTest {
    @Group("example.com")
    @Version("v1")
    public static class Bag extends CustomResource<Object, Bag.Status> implements Namespaced {
        public record Status(Long items, Object details) {
        }
    }

    private static JsonNode schema() throws Exception {
        return new YAMLMapper().readTree(Manifests.crdFile(Bag.class, true)).at("/spec/versions/0/schema/openAPIV3Schema/properties");
    }

    @Test
    void anObjectSpecKeepsEveryField() throws Exception {
        JsonNode spec = schema().get("spec");
        assertEquals("object", spec.path("type").asText(), spec.toString());
        assertEquals(true, spec.path("x-kubernetes-preserve-unknown-fields").asBoolean(), spec.toString());
    }

    @Test
    void objectFieldsKeepTheirFieldsAndTypedOnesStayClosed() throws Exception {
        JsonNode status = schema().get("status");
        assertEquals(true, status.at("/properties/details/x-kubernetes-preserve-unknown-fields").asBoolean(), status.toString());
        assertFalse(status.has("x-kubernetes-preserve-unknown-fields"), status.toString());
        assertEquals("int64", status.at("/properties/items/format").asText(), status.toString());
    }
}
