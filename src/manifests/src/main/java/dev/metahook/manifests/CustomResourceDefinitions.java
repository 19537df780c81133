package dev.metahook.manifests;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.internal.wire.Json;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.crdv2.generator.CRDGenerator;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The CustomResourceDefinition of annotated parent types, made by fabric8's crd-generator: the schema
 * from the spec and status types with their validation annotations ({@code @Required},
 * {@code @Default}, {@code @Pattern}, {@code @Min}, {@code @Max}, {@code @Size},
 * {@code @SchemaFrom}, {@code @PreserveUnknownFields}), {@code @ShortNames}, the status subresource,
 * {@code @AdditionalPrinterColumn}s. Then what the generator does not say: the printer columns in the
 * order the class declares them, {@code format: int64} for a {@code long}, {@link dev.metahook.api.ListMapKeys},
 * and, for a composite's parent, the {@code status.observedGeneration} Metacontroller writes and the
 * {@code status.conditions} metahook and Metacontroller write.
 */
final class CustomResourceDefinitions {
    private CustomResourceDefinitions() {
    }

    /** The CRD of this type as a tree; {@code composite} when Metacontroller writes its status.observedGeneration. */
    static ObjectNode of(Class<? extends HasMetadata> type, boolean composite) {
        if (type.getAnnotation(Group.class) == null || type.getAnnotation(Version.class) == null) {
            throw new IllegalArgumentException(type.getName() + ": a CRD needs the type's group and version: annotate it with"
                    + " fabric8's @Group and @Version");
        }
        List<HasMetadata> generated = new ArrayList<>();
        new CRDGenerator().forCRDVersions("v1").withParallelGenerationEnabled(false)
                .withPostProcessor(new io.fabric8.crdv2.generator.CRDPostProcessor() {
                    @Override
                    public HasMetadata process(HasMetadata crd, String version) {
                        generated.add(crd);
                        return crd;
                    }
                })
                .withOutput(new Discarded())
                .customResourceClasses(List.of(type))
                .generate();
        if (generated.size() != 1) {
            throw new IllegalStateException(type.getName() + ": the CRD generator made " + generated.size() + " definitions");
        }
        ObjectNode crd = (ObjectNode) Json.tree(generated.get(0));
        listKind((ObjectNode) crd.at("/spec/names"));
        for (JsonNode version : crd.at("/spec/versions")) {
            ObjectNode root = (ObjectNode) version.at("/schema/openAPIV3Schema");
            SchemaDetails.add(root, type);
            if (composite) {
                conditions(root, type);
                observedGeneration(root);
            }
            orderColumns((ObjectNode) version, type);
        }
        return crd;
    }

    /** {@code listKind} after {@code kind}, as the API server would default it. */
    private static void listKind(ObjectNode names) {
        if (names.has("listKind")) {
            return;
        }
        ObjectNode copy = names.deepCopy();
        names.removeAll();
        copy.properties().iterator().forEachRemaining(field -> {
            names.set(field.getKey(), field.getValue());
            if (field.getKey().equals("kind")) {
                names.put("listKind", field.getValue().asText() + "List");
            }
        });
    }

    /**
     * {@code status.conditions}, which metahook writes on a terminal error ({@code Ready}, {@code Reconciling},
     * {@code Stalled}) and Metacontroller writes for children that roll ({@code Updated}): declared as a list of
     * conditions when the status type has no such field, so that the API server does not prune them. A
     * {@code conditions} field of another shape is refused: neither could write there.
     */
    private static void conditions(ObjectNode root, Class<?> type) {
        if (!(root.at("/properties/status") instanceof ObjectNode status)
                || status.path("x-kubernetes-preserve-unknown-fields").asBoolean(false) && !status.has("properties")) {
            return;
        }
        JsonNode existing = status.at("/properties/conditions");
        if (existing.isMissingNode()) {
            ObjectNode properties = status.get("properties") instanceof ObjectNode found ? found : status.putObject("properties");
            Map<String, JsonNode> sorted = new TreeMap<>();
            properties.properties().iterator().forEachRemaining(field -> sorted.put(field.getKey(), field.getValue()));
            sorted.put("conditions", conditionList());
            properties.removeAll();
            properties.setAll(sorted);
            return;
        }
        boolean list = "array".equals(existing.path("type").asText())
                && ("object".equals(existing.at("/items/type").asText()) || existing.at("/items/x-kubernetes-preserve-unknown-fields").asBoolean(false));
        if (!list) {
            throw new IllegalArgumentException(type.getName() + ": status.conditions is " + describe(existing) + "; on a terminal error"
                    + " metahook writes its Ready, Reconciling and Stalled conditions there, and Metacontroller its Updated condition for"
                    + " children that roll, each an object with type, status, reason and message: make it a List<Condition>"
                    + " (io.fabric8.kubernetes.api.model.Condition) or give the field another name");
        }
    }

    private static String describe(JsonNode schema) {
        String kind = schema.path("type").asText("of no type");
        return "array".equals(kind) ? "a list of " + schema.at("/items/type").asText("values of no type") : "a " + kind;
    }

    /** A list of conditions: type and status required, as every writer gives them; the rest optional (Metacontroller's have no time). */
    private static ObjectNode conditionList() {
        ObjectNode list = Json.object();
        ObjectNode items = list.putObject("items");
        ObjectNode properties = items.putObject("properties");
        properties.putObject("lastTransitionTime").put("format", "date-time").put("type", "string");
        properties.putObject("message").put("type", "string");
        properties.putObject("observedGeneration").put("format", "int64").put("type", "integer");
        properties.putObject("reason").put("type", "string");
        properties.putObject("status").put("type", "string");
        properties.putObject("type").put("type", "string");
        items.putArray("required").add("type").add("status");
        items.put("type", "object");
        list.put("type", "array");
        return list;
    }

    /** The status field Metacontroller itself sets on a composite parent. */
    private static void observedGeneration(ObjectNode root) {
        JsonNode status = root.at("/properties/status");
        if (status instanceof ObjectNode statusSchema && !status.at("/properties/observedGeneration").isObject()) {
            ObjectNode properties = statusSchema.get("properties") instanceof ObjectNode existing ? existing : statusSchema.putObject("properties");
            Map<String, JsonNode> rest = new TreeMap<>();
            properties.properties().iterator().forEachRemaining(field -> rest.put(field.getKey(), field.getValue()));
            properties.removeAll();
            properties.putObject("observedGeneration").put("type", "integer").put("format", "int64");
            properties.setAll(rest);
        }
    }

    /** {@code kubectl get} shows the columns in this order: the class's, not the generator's alphabetical one. */
    private static void orderColumns(ObjectNode version, Class<?> type) {
        if (!(version.get("additionalPrinterColumns") instanceof ArrayNode columns)) {
            return;
        }
        List<String> declared = Arrays.stream(type.getAnnotationsByType(AdditionalPrinterColumn.class))
                .map(AdditionalPrinterColumn::name).toList();
        List<JsonNode> sorted = new ArrayList<>();
        columns.forEach(sorted::add);
        sorted.sort(Comparator.comparingInt(column -> {
            int index = declared.indexOf(column.path("name").asText());
            return index < 0 ? declared.size() : index;
        }));
        columns.removeAll();
        for (JsonNode column : sorted) {
            if (column.path("priority").asInt() == 0) {
                ((ObjectNode) column).remove("priority");
            }
            columns.add(column);
        }
    }

    /** The generator writes files too; the tree is taken from its post-processor instead. */
    private static final class Discarded implements CRDGenerator.CRDOutput<OutputStream> {
        @Override
        public OutputStream outputFor(String crdName) {
            return new ByteArrayOutputStream();
        }

        @Override
        public URI crdURI(String crdName) {
            return URI.create("file:/dev/null/" + crdName);
        }

        @Override
        public void close() {
        }
    }
}
