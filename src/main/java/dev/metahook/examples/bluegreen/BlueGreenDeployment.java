package dev.metahook.examples.bluegreen;

import dev.metahook.api.CustomResource;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetStatus;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;

/** {@code bluegreendeployments.ctl.enisoc.com/v1}, as the original example defines it. */
@Group("ctl.enisoc.com")
@Version("v1")
public class BlueGreenDeployment extends CustomResource<BlueGreenDeployment.Spec, BlueGreenDeployment.Status> implements Namespaced {

    /** The pods to run, how many, and the Service that fronts the active color. */
    public record Spec(Integer replicas, Integer minReadySeconds, LabelSelector selector, PodTemplateSpec template, Service service) {
    }

    /** The color the Service pointed at when this sync began, and each ReplicaSet's status as observed. */
    public record Status(String activeColor, ReplicaSetStatus active, ReplicaSetStatus inactive) {
    }
}
