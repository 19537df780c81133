package dev.metahook.examples.serviceperpod;

import dev.metahook.api.Context;
import dev.metahook.api.DecoratorController;
import dev.metahook.api.DecoratorResult;
import dev.metahook.api.Result;
import dev.metahook.api.TerminalException;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.Map;

/**
 * Labels a pod annotated with {@value #ANNOTATION} with its own name, under the label key the
 * annotation names: what StatefulSets before Kubernetes 1.9 did not do for service-per-pod.
 */
public final class PodNameLabelDecorator implements DecoratorController<Pod, Object> {
    static final String ANNOTATION = "pod-name-label";

    @Override
    public DecoratorResult<Object> sync(Pod pod, Context context) {
        Map<String, String> annotations = pod.getMetadata().getAnnotations();
        String labelKey = annotations == null ? null : annotations.get(ANNOTATION);
        if (labelKey == null || labelKey.isBlank()) {
            throw new TerminalException("InvalidAnnotation", "metadata.annotations." + ANNOTATION + ": is required");
        }
        return Result.of().withLabel(labelKey, pod.getMetadata().getName());
    }
}
