package example;

import dev.metahook.api.CustomResource;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import java.util.List;

/** One container image served by a Deployment behind a Service. */
@Group("metahook.dev")
@Version("v1")
public class WebApp extends CustomResource<WebApp.Spec, WebApp.Status> implements Namespaced {
    public record Spec(String image, Integer replicas, Integer port, List<EnvVar> env) {}

    public record Status(int replicas, int availableReplicas, int updatedReplicas, String url, List<Condition> conditions) {}
}
