package dev.metahook.controllers.webapp;

import dev.metahook.api.Conditions;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatus;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** Where a WebApp's Deployment stands, read only from what was observed: the rows of the conditions table. */
enum Rollout {
    CREATING("Creating"),
    PROGRESS_DEADLINE_EXCEEDED("ProgressDeadlineExceeded"),
    ROLLING_OUT("RollingOut"),
    AVAILABLE("Available");

    private final String reason;

    Rollout(String reason) {
        this.reason = reason;
    }

    static Rollout of(Optional<Deployment> observed, DesiredApp app) {
        if (observed.isEmpty()) {
            return CREATING;
        }
        Deployment deployment = observed.get();
        if (deadlineExceeded(status(deployment))) {
            return PROGRESS_DEADLINE_EXCEEDED;
        }
        return finished(deployment, app) ? AVAILABLE : ROLLING_OUT;
    }

    /** The Ready/Reconciling/Stalled summary of this row. */
    Conditions report(Conditions conditions, Optional<Deployment> observed, DesiredApp app) {
        String message = message(observed, app);
        return switch (this) {
            case AVAILABLE -> conditions.ready(reason, message);
            case PROGRESS_DEADLINE_EXCEEDED -> conditions.stalled(reason, message);
            case CREATING, ROLLING_OUT -> conditions.reconciling(reason, message);
        };
    }

    String message(Optional<Deployment> observed, DesiredApp app) {
        return switch (this) {
            case CREATING -> "waiting for the Deployment to be created";
            case PROGRESS_DEADLINE_EXCEEDED -> "the Deployment exceeded its progress deadline: " + progressMessage(observed.get());
            case ROLLING_OUT -> available(observed.get()) + "/" + app.replicas() + " replicas available, "
                    + count(status(observed.get()).getUpdatedReplicas()) + "/" + app.replicas() + " updated";
            case AVAILABLE -> available(observed.get()) + "/" + app.replicas() + " replicas available";
        };
    }

    private static boolean finished(Deployment deployment, DesiredApp app) {
        DeploymentStatus status = status(deployment);
        long generation = deployment.getMetadata().getGeneration() == null ? 0 : deployment.getMetadata().getGeneration();
        long observedGeneration = status.getObservedGeneration() == null ? 0 : status.getObservedGeneration();
        Integer specReplicas = deployment.getSpec() == null ? null : deployment.getSpec().getReplicas();
        Optional<Container> container = app(deployment);
        return observedGeneration >= generation
                && (specReplicas == null ? 1 : specReplicas) == app.replicas()
                && container.map(c -> Objects.equals(c.getImage(), app.image())).orElse(false)
                && container.flatMap(Rollout::httpPort).map(port -> port == app.port()).orElse(false)
                && count(status.getUpdatedReplicas()) >= app.replicas()
                && count(status.getAvailableReplicas()) >= app.replicas()
                && count(status.getReplicas()) <= app.replicas();
    }

    private static boolean deadlineExceeded(DeploymentStatus status) {
        return status.getConditions().stream().anyMatch(c -> "Progressing".equals(c.getType())
                && "False".equals(c.getStatus()) && "ProgressDeadlineExceeded".equals(c.getReason()));
    }

    private static String progressMessage(Deployment deployment) {
        return status(deployment).getConditions().stream().filter(c -> "Progressing".equals(c.getType()))
                .map(c -> c.getMessage() == null ? "no message" : c.getMessage()).findFirst().orElse("no message");
    }

    private static Optional<Container> app(Deployment deployment) {
        if (deployment.getSpec() == null || deployment.getSpec().getTemplate() == null
                || deployment.getSpec().getTemplate().getSpec() == null) {
            return Optional.empty();
        }
        List<Container> containers = deployment.getSpec().getTemplate().getSpec().getContainers();
        return containers.stream().filter(c -> "app".equals(c.getName())).findFirst();
    }

    private static Optional<Integer> httpPort(Container container) {
        return container.getPorts().stream().filter(p -> "http".equals(p.getName())).map(ContainerPort::getContainerPort)
                .filter(Objects::nonNull).findFirst();
    }

    private static int available(Deployment deployment) {
        return count(status(deployment).getAvailableReplicas());
    }

    private static DeploymentStatus status(Deployment deployment) {
        return deployment.getStatus() == null ? new DeploymentStatus() : deployment.getStatus();
    }

    private static int count(Integer value) {
        return value == null ? 0 : value;
    }
}
