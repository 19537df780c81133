package dev.metahook.examples.configmappropagation;

import dev.metahook.api.CustomResource;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import java.util.List;

/**
 * A cluster-scoped parent that copies one ConfigMap into every namespace a selector matches: the
 * behaviour of Metacontroller's {@code configmappropagation} example, with the target namespaces
 * selected by labels (related objects) rather than listed.
 */
@Group("examples.metacontroller.io")
@Version("v1alpha1")
public class ConfigMapPropagation extends CustomResource<ConfigMapPropagation.Spec, ConfigMapPropagation.Status> {

    public record Spec(String sourceName, String sourceNamespace, LabelSelector targetNamespaceSelector) {}

    public record Status(int expectedCopies, int actualCopies, List<Condition> conditions) {}
}
