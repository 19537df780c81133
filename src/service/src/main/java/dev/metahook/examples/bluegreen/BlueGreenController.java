package dev.metahook.examples.bluegreen;

import dev.metahook.api.CompositeController;
import dev.metahook.api.Context;
import dev.metahook.api.Result;
import dev.metahook.api.TerminalException;
import dev.metahook.examples.bluegreen.BlueGreenDeployment.Spec;
import dev.metahook.examples.bluegreen.BlueGreenDeployment.Status;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.ServiceSpec;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetBuilder;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetStatus;
import java.util.Optional;

/**
 * One step of a blue-green rollout per sync, as the original decides it: when the active ReplicaSet
 * runs the current template the inactive one is scaled to zero; when the inactive one runs it, it is
 * scaled up, and once all its replicas are available the Service switches to it; when neither does, a
 * new rollout starts on the inactive one, but only after it has scaled down to zero. Like the
 * original, a change of {@code spec.replicas} alone does not resize the active ReplicaSet. Unlike it,
 * a {@code spec.service} without a selector is an invalid spec rather than a Service that selects
 * by color alone (every pod of that color in the namespace).
 */
public final class BlueGreenController implements CompositeController<BlueGreenDeployment, Status> {
    static final String COLOR = "color";
    private static final String BLUE = "blue";
    private static final String GREEN = "green";

    /** A ReplicaSet as it should be: its replica count and the template it runs. */
    private record Side(int replicas, RecordedTemplate template) {
    }

    @Override
    public Result<Status> sync(BlueGreenDeployment deployment, Context context) {
        Spec spec = valid(deployment);
        String name = deployment.getMetadata().getName();
        String activeColor = context.children().get(Service.class, spec.service().getMetadata().getName())
                .map(Service::getSpec).map(ServiceSpec::getSelector)
                .map(selector -> GREEN.equals(selector.get(COLOR)) ? GREEN : BLUE)
                .orElse(BLUE);
        Optional<ReplicaSet> activeSet = context.children().get(ReplicaSet.class, name + "-" + activeColor);
        Optional<ReplicaSet> inactiveSet = context.children().get(ReplicaSet.class, name + "-" + other(activeColor));
        Status status = new Status(activeColor, statusOf(activeSet), statusOf(inactiveSet));

        Optional<RecordedTemplate> activeRecord = activeSet.map(set -> recorded(set, context));
        Optional<RecordedTemplate> inactiveRecord = inactiveSet.map(set -> recorded(set, context));
        Side active = new Side(activeSet.map(set -> set.getSpec().getReplicas()).orElse(spec.replicas()),
                activeRecord.orElseGet(() -> RecordedTemplate.of(spec.template())));
        Side inactive = new Side(inactiveSet.map(set -> set.getSpec().getReplicas()).orElse(0),
                inactiveRecord.orElseGet(() -> RecordedTemplate.of(spec.template())));
        if (runsCurrent(activeRecord, spec)) {
            inactive = new Side(0, inactive.template());
        } else if (runsCurrent(inactiveRecord, spec)) {
            inactive = new Side(spec.replicas(), inactive.template());
            if (allAvailable(inactiveSet.get(), spec.replicas())) {
                activeColor = other(activeColor);
                Side swapped = active;
                active = inactive;
                inactive = swapped;
            }
        } else if (inactiveSet.isPresent() && scaledDown(inactiveSet.get())) {
            inactive = new Side(spec.replicas(), RecordedTemplate.of(spec.template()));
        } else {
            inactive = new Side(0, inactive.template());
        }
        return Result.of(
                        service(spec, activeColor),
                        replicaSet(deployment, activeColor, active),
                        replicaSet(deployment, other(activeColor), inactive))
                .deletingUnlisted()
                .withStatus(status);
    }

    private static ReplicaSetStatus statusOf(Optional<ReplicaSet> set) {
        return set.isPresent() ? set.get().getStatus() : new ReplicaSetStatus();
    }

    /** The template a ReplicaSet was made from, read from it as it was applied (so an annotation edited away is still found). */
    private static RecordedTemplate recorded(ReplicaSet set, Context context) {
        ReplicaSet applied = context.children().lastApplied(ReplicaSet.class, set.getMetadata().getName()).orElse(set);
        return RecordedTemplate.of(applied, COLOR);
    }

    private static boolean runsCurrent(Optional<RecordedTemplate> record, Spec spec) {
        return record.isPresent() && record.get().matches(spec.template());
    }

    private static boolean allAvailable(ReplicaSet set, int replicas) {
        return set.getStatus() != null && Integer.valueOf(replicas).equals(set.getStatus().getAvailableReplicas());
    }

    /**
     * Asked for no replicas and reporting none, as the original reads it: a status without
     * {@code replicas} (the ReplicaSet controller has not written one yet) is not a count of zero, so
     * the rollout waits for it.
     */
    private static boolean scaledDown(ReplicaSet set) {
        return Integer.valueOf(0).equals(set.getSpec().getReplicas())
                && set.getStatus() != null && Integer.valueOf(0).equals(set.getStatus().getReplicas());
    }

    private static String other(String color) {
        return BLUE.equals(color) ? GREEN : BLUE;
    }

    private static Service service(Spec spec, String color) {
        return new ServiceBuilder(spec.service())
                .withApiVersion("v1").withKind("Service")
                .editOrNewSpec().addToSelector(COLOR, color).endSpec()
                .build();
    }

    private static ReplicaSet replicaSet(BlueGreenDeployment deployment, String color, Side side) {
        Spec spec = deployment.getSpec();
        var template = new PodTemplateSpecBuilder(side.template().template())
                .editOrNewMetadata().addToLabels(COLOR, color).endMetadata()
                .build();
        return new ReplicaSetBuilder()
                .withNewMetadata()
                .withName(deployment.getMetadata().getName() + "-" + color)
                .withLabels(template.getMetadata().getLabels())
                .addToAnnotations(RecordedTemplate.ANNOTATION, side.template().json())
                .endMetadata()
                .withNewSpec()
                .withReplicas(side.replicas())
                .withMinReadySeconds(spec.minReadySeconds())
                .withSelector(new LabelSelectorBuilder(spec.selector()).addToMatchLabels(COLOR, color).build())
                .withTemplate(template)
                .endSpec()
                .build();
    }

    private static Spec valid(BlueGreenDeployment deployment) {
        Spec spec = deployment.getSpec();
        if (spec == null) {
            throw new TerminalException("InvalidSpec", "spec: is required");
        }
        if (spec.replicas() == null || spec.replicas() < 0) {
            throw new TerminalException("InvalidSpec", "spec.replicas: a whole number of at least 0 is required");
        }
        if (spec.selector() == null) {
            throw new TerminalException("InvalidSpec", "spec.selector: is required");
        }
        if (spec.template() == null || spec.template().getMetadata() == null || spec.template().getMetadata().getLabels() == null) {
            throw new TerminalException("InvalidSpec", "spec.template.metadata.labels: is required");
        }
        Service service = spec.service();
        if (service == null || service.getMetadata() == null || service.getMetadata().getName() == null || service.getSpec() == null) {
            throw new TerminalException("InvalidSpec", "spec.service: metadata.name and spec are required");
        }
        if (service.getSpec().getSelector() == null || service.getSpec().getSelector().isEmpty()) {
            // the color alone would select every blue (or green) pod in the namespace, of any app
            throw new TerminalException("InvalidSpec", "spec.service.spec.selector: is required");
        }
        return spec;
    }
}
