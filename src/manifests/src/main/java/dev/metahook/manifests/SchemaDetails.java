package dev.metahook.manifests;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.api.CustomResource;
import dev.metahook.api.ListMapKeys;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.Collection;
import java.util.Iterator;
import java.util.Map;

/**
 * What a generated schema lacks and the Java type says: {@code format: int64} for a {@code long},
 * {@code x-kubernetes-list-type: map} for a {@link ListMapKeys} list, {@code x-kubernetes-preserve-unknown-fields}
 * for an {@code Object}, whole numbers for bounds the
 * generator writes as {@code 65535.0}. Walks the schema and the type side by side.
 */
final class SchemaDetails {
    private SchemaDetails() {
    }

    static void add(ObjectNode root, Class<?> parentType) {
        Type[] specAndStatus = specAndStatus(parentType);
        walk(root.at("/properties/spec"), specAndStatus[0]);
        walk(root.at("/properties/status"), specAndStatus[1]);
    }

    private static Type[] specAndStatus(Class<?> parentType) {
        for (Class<?> type = parentType; type != null && type != Object.class; type = type.getSuperclass()) {
            if (type.getGenericSuperclass() instanceof ParameterizedType generic && generic.getRawType() == CustomResource.class) {
                return generic.getActualTypeArguments();
            }
        }
        return new Type[] {fieldType(parentType, "spec"), fieldType(parentType, "status")};
    }

    private static void walk(JsonNode schema, Type type) {
        if (!(schema instanceof ObjectNode node) || type == null) {
            return;
        }
        wholeBounds(node);
        Class<?> raw = raw(type);
        if (raw == Object.class) {
            keepUnknownFields(node);
            return;
        }
        if (raw == long.class || raw == Long.class) {
            if ("integer".equals(node.path("type").asText()) && !node.has("format")) {
                node.put("format", "int64");
            }
            return;
        }
        if (node.has("items")) {
            walk(node.get("items"), element(type));
            return;
        }
        if (raw == null || raw.getName().startsWith("java.")) {
            return;
        }
        Iterator<Map.Entry<String, JsonNode>> properties = node.path("properties").properties().iterator();
        while (properties.hasNext()) {
            Map.Entry<String, JsonNode> property = properties.next();
            Field field = field(raw, property.getKey());
            if (field == null) {
                continue;
            }
            ListMapKeys keys = field.getAnnotation(ListMapKeys.class);
            if (keys != null && property.getValue() instanceof ObjectNode list) {
                list.put("x-kubernetes-list-type", "map");
                var names = list.putArray("x-kubernetes-list-map-keys");
                for (String key : keys.value()) {
                    names.add(key);
                }
            }
            SchemaFrom from = field.getAnnotation(SchemaFrom.class);
            walk(property.getValue(), from != null ? from.type() : field.getGenericType());
        }
    }

    /**
     * An {@code Object} (a spec read as a map or a JsonNode) is an object of any fields: the generator says
     * {@code type: object} alone, which the API server reads as "no fields" and prunes whole.
     */
    private static void keepUnknownFields(ObjectNode node) {
        if ("object".equals(node.path("type").asText()) && !node.has("properties") && !node.has("additionalProperties")) {
            node.put("x-kubernetes-preserve-unknown-fields", true);
        }
    }

    private static void wholeBounds(ObjectNode node) {
        for (String bound : new String[] {"minimum", "maximum"}) {
            JsonNode value = node.get(bound);
            if (value != null && value.isFloatingPointNumber() && value.asDouble() == Math.rint(value.asDouble())) {
                node.put(bound, (long) value.asDouble());
            }
        }
    }

    private static Type element(Type type) {
        if (type instanceof Class<?> array && array.isArray()) {
            return array.getComponentType();
        }
        if (type instanceof GenericArrayType array) {
            return array.getGenericComponentType();
        }
        if (type instanceof ParameterizedType generic && Collection.class.isAssignableFrom(raw(generic))) {
            return generic.getActualTypeArguments()[0];
        }
        return null;
    }

    private static Class<?> raw(Type type) {
        if (type instanceof Class<?> c) {
            return c;
        }
        return type instanceof ParameterizedType generic ? (Class<?>) generic.getRawType() : null;
    }

    private static Field field(Class<?> type, String name) {
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            try {
                return c.getDeclaredField(name);
            } catch (NoSuchFieldException e) {
                // a superclass may declare it
            }
        }
        return null;
    }

    private static Type fieldType(Class<?> type, String name) {
        Field field = field(type, name);
        return field == null ? null : field.getGenericType();
    }
}
