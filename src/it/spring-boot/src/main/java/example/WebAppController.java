package example;

import dev.metahook.api.CompositeController;
import dev.metahook.api.ConditionStatus;
import dev.metahook.api.Conditions;
import dev.metahook.api.Context;
import dev.metahook.api.Result;
import dev.metahook.api.TerminalException;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatus;
import java.util.Map;
import java.util.Optional;
import org.springframework.stereotype.Component;

@Component
public class WebAppController implements CompositeController<WebApp, WebApp.Status> {
    private final ServiceUrls urls;

    public WebAppController(ServiceUrls urls) {
        this.urls = urls;
    }

    @Override
    public Result<WebApp.Status> sync(WebApp app, Context context) {
        WebApp.Spec spec = app.getSpec();
        if (spec == null || spec.image() == null) {
            throw new TerminalException("InvalidSpec", "spec.image: is required");
        }
        String name = app.getMetadata().getName();
        int replicas = spec.replicas() == null ? 1 : spec.replicas();
        int port = spec.port() == null ? 8080 : spec.port();
        Map<String, String> labels = Map.of("app.kubernetes.io/name", "webapp", "app.kubernetes.io/instance", name);
        Deployment deployment = new DeploymentBuilder()
                .withNewMetadata().withName(name).withLabels(labels).endMetadata()
                .withNewSpec().withReplicas(replicas).withNewSelector().withMatchLabels(labels).endSelector()
                .withNewTemplate().withNewMetadata().withLabels(labels).endMetadata()
                .withNewSpec().addNewContainer().withName("app").withImage(spec.image()).withEnv(spec.env())
                .addNewPort().withName("http").withContainerPort(port).endPort().endContainer().endSpec()
                .endTemplate().endSpec().build();
        Service service = new ServiceBuilder()
                .withNewMetadata().withName(name).withLabels(labels).endMetadata()
                .withNewSpec().withSelector(labels)
                .addNewPort().withName("http").withPort(port).withTargetPort(new IntOrString("http")).endPort().endSpec().build();
        DeploymentStatus observed = context.children().get(Deployment.class, name)
                .map(Deployment::getStatus).orElseGet(DeploymentStatus::new);
        int available = count(observed.getAvailableReplicas());
        int updated = count(observed.getUpdatedReplicas());
        boolean ready = available >= replicas && updated >= replicas;
        String message = available + "/" + replicas + " replicas available, " + updated + "/" + replicas + " updated";
        Conditions conditions = Conditions.from(app, context.clock()).summary(ConditionStatus.of(ready), ConditionStatus.of(!ready),
                ConditionStatus.FALSE, ready ? "Available" : "RollingOut", message);
        return Result.of(deployment, service).deletingUnlisted().withStatus(new WebApp.Status(count(observed.getReplicas()),
                available, updated, urls.of(name, app.getMetadata().getNamespace(), port), conditions.list()));
    }

    private static int count(Integer value) {
        return Optional.ofNullable(value).orElse(0);
    }
}
