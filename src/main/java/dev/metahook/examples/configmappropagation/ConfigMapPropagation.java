package dev.metahook.examples.configmappropagation;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.metahook.api.CustomResource;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import java.util.List;

/**
 * A cluster-scoped parent that copies one ConfigMap into other namespaces: the ones it lists, as in
 * Metacontroller's {@code configmappropagation} example, and the ones a label selector matches (read
 * as related objects). Its status counts the copies under the original's names.
 */
@Group("examples.metacontroller.io")
@Version("v1alpha1")
public class ConfigMapPropagation extends CustomResource<ConfigMapPropagation.Spec, ConfigMapPropagation.Status> {

    public record Spec(String sourceName, String sourceNamespace, List<String> targetNamespaces,
                       LabelSelector targetNamespaceSelector) {}

    public record Status(@JsonProperty("expected_copies") int expectedCopies, @JsonProperty("actual_copies") int actualCopies,
                         List<Condition> conditions) {}
}
