package dev.metahook.controllers.webapp;

import dev.metahook.api.CompositeController;
import dev.metahook.api.Conditions;
import dev.metahook.api.Context;
import dev.metahook.api.ObservedChildren;
import dev.metahook.api.Result;
import dev.metahook.api.StalledHandler;
import dev.metahook.api.TerminalException;
import dev.metahook.controllers.ChildNames;
import dev.metahook.controllers.Labels;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.ServiceSpec;
import io.fabric8.kubernetes.api.model.TCPSocketAction;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentSpec;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatus;
import java.util.List;
import java.util.Optional;

/**
 * Serves a WebApp: validate the spec, build the Deployment and the Service, report replica counts,
 * the URL and the Ready/Reconciling/Stalled conditions. An invalid spec keeps what runs.
 */
public final class WebAppController implements CompositeController<WebApp, WebApp.Status>,
        StalledHandler<WebApp, WebApp.Status> {
    private static final String APP = "webapp";

    @Override
    public Result<WebApp.Status> sync(WebApp webApp, Context context) {
        DesiredApp app = DesiredApp.of(webApp.getSpec());
        String name = webApp.getMetadata().getName();
        ChildNames.requireDnsLabels("WebApp", name, List.of(name));
        Optional<Deployment> observed = context.children().get(Deployment.class, name);
        Conditions conditions = Rollout.of(observed, app).report(Conditions.from(webApp, context.clock()), observed, app);
        return Result.of(deployment(webApp, app), service(webApp, app))
                .deletingUnlisted()
                .withStatus(status(observed, url(webApp, app.port()), conditions));
    }

    /** An invalid spec: what runs is kept as last applied, and the status says why nothing changes. */
    @Override
    public Result<WebApp.Status> stalled(WebApp webApp, Context context, TerminalException error) {
        ObservedChildren children = context.children();
        String name = webApp.getMetadata().getName();
        Optional<Integer> servedPort = children.get(Service.class, name).flatMap(WebAppController::httpPort);
        Conditions conditions = Conditions.from(webApp, context.clock()).stalled(error.reason(), error.getMessage());
        String url = servedPort.map(port -> url(webApp, port)).orElse(null);
        return Result.keepingObserved().withStatus(status(children.get(Deployment.class, name), url, conditions));
    }

    /*
     * Children are built from the model's constructors and setters rather than its builders: a fabric8
     * builder copies every nested object at each level it passes through, which made building the
     * Deployment a third of what a sync allocated.
     */
    private static Deployment deployment(WebApp webApp, DesiredApp app) {
        String name = webApp.getMetadata().getName();
        Container container = new Container();
        container.setName("app");
        container.setImage(app.image());
        container.setPorts(List.of(containerPort(app.port())));
        container.setEnv(app.env().isEmpty() ? null : app.env());
        container.setResources(app.hasResources() ? app.resources() : null);
        Probe readiness = new Probe();
        readiness.setTcpSocket(new TCPSocketAction(null, new IntOrString("http")));
        container.setReadinessProbe(readiness);
        PodSpec pod = new PodSpec();
        pod.setContainers(List.of(container));
        DeploymentSpec spec = new DeploymentSpec();
        spec.setReplicas(app.replicas());
        spec.setSelector(new LabelSelector(null, Labels.selector(APP, name)));
        spec.setTemplate(new PodTemplateSpec(Labels.objectMeta(null, null, Labels.selector(APP, name)), pod));
        Deployment deployment = new Deployment();
        deployment.setMetadata(metadata(webApp));
        deployment.setSpec(spec);
        return deployment;
    }

    private static Service service(WebApp webApp, DesiredApp app) {
        String name = webApp.getMetadata().getName();
        ServicePort port = new ServicePort();
        port.setName("http");
        port.setPort(app.port());
        port.setTargetPort(new IntOrString("http"));
        ServiceSpec spec = new ServiceSpec();
        spec.setType("ClusterIP");
        spec.setSelector(Labels.selector(APP, name));
        spec.setPorts(List.of(port));
        Service service = new Service();
        service.setMetadata(metadata(webApp));
        service.setSpec(spec);
        return service;
    }

    private static ContainerPort containerPort(int port) {
        ContainerPort containerPort = new ContainerPort();
        containerPort.setName("http");
        containerPort.setContainerPort(port);
        return containerPort;
    }

    private static ObjectMeta metadata(WebApp webApp) {
        return Labels.objectMeta(webApp.getMetadata().getName(), webApp.getMetadata().getNamespace(),
                Labels.common(APP, webApp.getMetadata().getName()));
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
