package dev.metahook.examples.catset;

import dev.metahook.api.CustomResource;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import java.util.List;

/** {@code catsets.ctl.enisoc.com/v1}, as the original example defines it: the fields of a StatefulSet it uses. */
@Group("ctl.enisoc.com")
@Version("v1")
public class CatSet extends CustomResource<CatSet.Spec, CatSet.Status> implements Namespaced {

    public record Spec(Integer replicas, LabelSelector selector, String serviceName, PodTemplateSpec template,
                       List<PersistentVolumeClaim> volumeClaimTemplates) {
    }

    /** Pods observed, and how many of the lowest ordinals are running and ready in a row. */
    public record Status(int replicas, int readyReplicas) {
    }
}
