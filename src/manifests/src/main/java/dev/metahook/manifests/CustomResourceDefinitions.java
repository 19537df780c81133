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
 * and, for a composite's parent, the {@code status.observedGeneration} Metacontroller writes.
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
