package dev.metahook.manifests;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.EnvFromSource;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.SecurityContext;
import java.io.InputStream;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The values that are Kubernetes objects (the security contexts, the resources, extraEnv and envFrom) are closed in the
 * chart's schema exactly as the Kubernetes model of the fabric8 version metahook builds on has them: every field, and no
 * other, so a misspelt field is an error rather than a value the API server drops.
 */
class ChartSchemaTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Test
    void theKubernetesValuesAreClosedAsTheKubernetesModelHasThem() throws Exception {
        JsonNode values;
        try (InputStream in = Chart.class.getResourceAsStream("chart/values.schema.json")) {
            values = MAPPER.readTree(in).get("properties");
        }
        assertEquals(schemaOf(MAPPER.constructType(SecurityContext.class)), values.get("securityContext"));
        assertEquals(schemaOf(MAPPER.constructType(PodSecurityContext.class)), values.get("podSecurityContext"));
        assertEquals(schemaOf(MAPPER.constructType(ResourceRequirements.class)), values.get("resources"));
        ObjectNode variable = (ObjectNode) schemaOf(MAPPER.constructType(EnvVar.class));
        variable.putArray("required").add("name");
        assertEquals(MAPPER.createObjectNode().put("type", "array").set("items", variable), values.get("extraEnv"));
        assertEquals(MAPPER.createObjectNode().put("type", "array").set("items", schemaOf(MAPPER.constructType(EnvFromSource.class))),
                values.get("envFrom"));
    }

    /** A model type's schema: its properties as Jackson writes them, each closed in turn. */
    private static JsonNode schemaOf(JavaType type) {
        Class<?> raw = type.getRawClass();
        if (raw == String.class) {
            return MAPPER.createObjectNode().put("type", "string");
        }
        if (raw == Boolean.class) {
            return MAPPER.createObjectNode().put("type", "boolean");
        }
        if (raw == Long.class || raw == Integer.class) {
            return MAPPER.createObjectNode().put("type", "integer");
        }
        if (raw == Quantity.class || raw == IntOrString.class) {
            ObjectNode either = MAPPER.createObjectNode();
            either.putArray("type").add("string").add("number");
            return either;
        }
        if (type.isCollectionLikeType()) {
            return MAPPER.createObjectNode().put("type", "array").set("items", schemaOf(type.getContentType()));
        }
        if (type.isMapLikeType()) {
            return MAPPER.createObjectNode().put("type", "object").set("additionalProperties", schemaOf(type.getContentType()));
        }
        Map<String, JsonNode> properties = new TreeMap<>();
        for (BeanPropertyDefinition property : MAPPER.getSerializationConfig().introspect(type).findProperties()) {
            properties.put(property.getName(), schemaOf(property.getPrimaryType()));
        }
        ObjectNode object = MAPPER.createObjectNode().put("type", "object");
        properties.forEach(object.putObject("properties")::set);
        return object.put("additionalProperties", false);
    }
}
