package dev.metahook.controllers.webapp;

import dev.metahook.api.CustomResource;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import java.util.List;

/** {@code webapps.metahook.dev/v1}: one container image served by a Deployment behind a Service. */
@Group("metahook.dev")
@Version("v1")
public class WebApp extends CustomResource<WebApp.Spec, WebApp.Status> implements Namespaced {

    /** What the user asks for; absent values take the CRD's defaults. */
    public record Spec(String image, Integer replicas, Integer port, List<EnvVar> env, ResourceRequirements resources) {
    }

    /** What the controller reports. */
    public record Status(int replicas, int readyReplicas, int availableReplicas, int updatedReplicas, String url,
                         List<Condition> conditions) {
    }
}
