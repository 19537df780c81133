package dev.metahook.examples.bluegreen;

import dev.metahook.api.CustomResource;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn.Type;
import io.fabric8.crd.generator.annotation.PreserveUnknownFields;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetStatus;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * {@code bluegreendeployments.ctl.enisoc.com/v1}, as the original example defines it. Its CRD
 * ({@code examples/bluegreen/crd.yaml}) is generated from these annotations; the pod template and the
 * Service are kept as the cluster's own types check them, not spelled out again.
 */
@Group("ctl.enisoc.com")
@Version("v1")
@ShortNames("bgd")
@AdditionalPrinterColumn(name = "Active", jsonPath = ".status.activeColor", type = Type.STRING)
@AdditionalPrinterColumn(name = "Available", jsonPath = ".status.active.availableReplicas", type = Type.INTEGER)
public class BlueGreenDeployment extends CustomResource<BlueGreenDeployment.Spec, BlueGreenDeployment.Status> implements Namespaced {

    /** The pods to run, how many, and the Service that fronts the active color. */
    public record Spec(@Required @Min(0) Integer replicas, @Min(0) Integer minReadySeconds, @Required LabelSelector selector,
                       @Required @SchemaFrom(type = Object.class) @PreserveUnknownFields PodTemplateSpec template,
                       @Required @SchemaFrom(type = Object.class) @PreserveUnknownFields Service service) {
    }

    /** The color the Service pointed at when this sync began, and each ReplicaSet's status as observed. */
    public record Status(String activeColor, ReplicaSetStatus active, ReplicaSetStatus inactive) {
    }
}
