package dev.metahook.examples.catset;

import dev.metahook.api.CustomResource;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn.Type;
import io.fabric8.crd.generator.annotation.PreserveUnknownFields;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;
import java.util.List;

/**
 * {@code catsets.ctl.enisoc.com/v1}, as the original example defines it: the fields of a StatefulSet it
 * uses. Its CRD ({@code examples/catset/crd.yaml}) is generated from these annotations; the pod and
 * claim templates are kept as the cluster's own types check them, not spelled out again.
 */
@Group("ctl.enisoc.com")
@Version("v1")
@ShortNames("cs")
@AdditionalPrinterColumn(name = "Replicas", jsonPath = ".status.replicas", type = Type.INTEGER)
@AdditionalPrinterColumn(name = "Ready", jsonPath = ".status.readyReplicas", type = Type.INTEGER)
public class CatSet extends CustomResource<CatSet.Spec, CatSet.Status> implements Namespaced {

    public record Spec(@Required @Min(0) Integer replicas, @Required LabelSelector selector, String serviceName,
                       @Required @SchemaFrom(type = Object.class) @PreserveUnknownFields PodTemplateSpec template,
                       @SchemaFrom(type = AnyObject[].class) List<PersistentVolumeClaim> volumeClaimTemplates) {
    }

    /** Pods observed, and how many of the lowest ordinals are running and ready in a row. */
    public record Status(int replicas, int readyReplicas) {
    }
}
