package dev.metahook.examples.configmappropagation;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.metahook.api.CustomResource;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn.Type;
import io.fabric8.generator.annotation.Required;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import java.util.List;

/**
 * A cluster-scoped parent that copies one ConfigMap into other namespaces: the ones it lists, as in
 * Metacontroller's {@code configmappropagation} example, and the ones a label selector matches (read
 * as related objects). Its status counts the copies under the original's names. Its CRD
 * ({@code examples/configmappropagation/crd.yaml}) is generated from these annotations.
 */
@Group("examples.metacontroller.io")
@Version("v1alpha1")
@AdditionalPrinterColumn(name = "Expected", jsonPath = ".status.expected_copies", type = Type.INTEGER)
@AdditionalPrinterColumn(name = "Actual", jsonPath = ".status.actual_copies", type = Type.INTEGER)
public class ConfigMapPropagation extends CustomResource<ConfigMapPropagation.Spec, ConfigMapPropagation.Status> {

    /** A propagation without a spec names no source: the CRD requires it (top-level {@code required: [spec]}), as the original's does. */
    @Override
    @Required
    public Spec getSpec() {
        return super.getSpec();
    }

    public record Spec(@Required @JsonPropertyDescription("the ConfigMap to copy") String sourceName,
                       @Required @JsonPropertyDescription("its namespace") String sourceNamespace,
                       @JsonPropertyDescription("the namespaces that get a copy, by name (as in the original)") List<String> targetNamespaces,
                       @JsonPropertyDescription("the namespaces that get a copy, by label") LabelSelector targetNamespaceSelector) {}

    public record Status(@JsonProperty("expected_copies") int expectedCopies, @JsonProperty("actual_copies") int actualCopies,
                         List<Condition> conditions) {}
}
