package dev.metahook.controllers.webapp;

import dev.metahook.api.CompositeController;
import dev.metahook.api.Conditions;
import dev.metahook.api.ObservedChildren;
import dev.metahook.api.SyncResult;
import dev.metahook.api.TerminalException;
import dev.metahook.controllers.Labels;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatus;
import java.time.Clock;
import java.util.Optional;

/**
 * Serves a WebApp: validate the spec, build the Deployment and the Service, report replica counts,
 * the URL and the Ready/Reconciling/Stalled conditions. An invalid spec keeps what runs.
 */
public final class WebAppController implements CompositeController<WebApp> {
    private static final String APP = "webapp";

    private final Clock clock;

    public WebAppController(Clock clock) {
        this.clock = clock;
    }

    @Override
    public SyncResult sync(WebApp webApp, ObservedChildren children) {
        DesiredApp app = DesiredApp.of(webApp.getSpec());
        String name = webApp.getMetadata().getName();
        Optional<Deployment> observed = children.get(Deployment.class, name);
        Rollout rollout = Rollout.of(observed, app);
        Conditions conditions = Conditions.from(webApp, clock)
                .set("Ready", rollout == Rollout.AVAILABLE, rollout.reason(), rollout.message(observed, app))
                .set("Reconciling", rollout.reconciling(), rollout.reason(), rollout.message(observed, app))
                .set("Stalled", rollout.stalled(), rollout.reason(), rollout.message(observed, app));
        return SyncResult.of(deployment(webApp, app), service(webApp, app))
                .withStatus(status(observed, url(webApp, app.port()), conditions))
                .deletingUnlisted();
    }

    @Override
    public SyncResult stalled(WebApp webApp, ObservedChildren children, TerminalException error) {
        String name = webApp.getMetadata().getName();
        Optional<Integer> servedPort = children.get(Service.class, name).flatMap(WebAppController::httpPort);
        Conditions conditions = Conditions.from(webApp, clock)
                .set("Ready", false, error.reason(), error.getMessage())
                .set("Reconciling", false, error.reason(), error.getMessage())
                .set("Stalled", true, error.reason(), error.getMessage());
        String url = servedPort.map(port -> url(webApp, port)).orElse(null);
        return SyncResult.keepingObserved().withStatus(status(children.get(Deployment.class, name), url, conditions));
    }

    private static Deployment deployment(WebApp webApp, DesiredApp app) {
        String name = webApp.getMetadata().getName();
        return new DeploymentBuilder()
                .withNewMetadata()
                .withName(name).withNamespace(webApp.getMetadata().getNamespace()).withLabels(Labels.common(APP, name))
                .endMetadata()
                .withNewSpec()
                .withReplicas(app.replicas())
                .withNewSelector().withMatchLabels(Labels.selector(APP, name)).endSelector()
                .withNewTemplate()
                .withNewMetadata().withLabels(Labels.selector(APP, name)).endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("app")
                .withImage(app.image())
                .addNewPort().withName("http").withContainerPort(app.port()).endPort()
                .withEnv(app.env().isEmpty() ? null : app.env())
                .withResources(app.hasResources() ? app.resources() : null)
                .withNewReadinessProbe().withNewTcpSocket().withNewPort("http").endTcpSocket().endReadinessProbe()
                .endContainer()
                .endSpec()
                .endTemplate()
                .endSpec()
                .build();
    }

    private static Service service(WebApp webApp, DesiredApp app) {
        String name = webApp.getMetadata().getName();
        return new ServiceBuilder()
                .withNewMetadata()
                .withName(name).withNamespace(webApp.getMetadata().getNamespace()).withLabels(Labels.common(APP, name))
                .endMetadata()
                .withNewSpec()
                .withType("ClusterIP")
                .withSelector(Labels.selector(APP, name))
                .addNewPort().withName("http").withPort(app.port()).withNewTargetPort("http").endPort()
                .endSpec()
                .build();
    }

    private static WebApp.Status status(Optional<Deployment> deployment, String url, Conditions conditions) {
        DeploymentStatus observed = deployment.map(Deployment::getStatus).orElseGet(DeploymentStatus::new);
        return new WebApp.Status(count(observed.getReplicas()), count(observed.getReadyReplicas()),
                count(observed.getAvailableReplicas()), count(observed.getUpdatedReplicas()), url, conditions.list());
    }

    private static String url(WebApp webApp, int port) {
        return "http://" + webApp.getMetadata().getName() + "." + webApp.getMetadata().getNamespace() + ".svc:" + port;
    }

    private static Optional<Integer> httpPort(Service service) {
        return service.getSpec() == null ? Optional.empty() : service.getSpec().getPorts().stream()
                .filter(port -> "http".equals(port.getName())).map(ServicePort::getPort).findFirst();
    }

    private static int count(Integer value) {
        return value == null ? 0 : value;
    }
}
