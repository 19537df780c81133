package dev.metahook.examples;

import dev.metahook.api.Controllers;
import dev.metahook.examples.bluegreen.BlueGreenController;
import dev.metahook.examples.bluegreen.BlueGreenDeployment;
import dev.metahook.examples.catset.CatSet;
import dev.metahook.examples.catset.CatSetController;
import dev.metahook.examples.configmappropagation.ConfigMapPropagation;
import dev.metahook.examples.configmappropagation.ConfigMapPropagationController;
import dev.metahook.examples.serviceperpod.PodNameLabelDecorator;
import dev.metahook.examples.serviceperpod.ServicePerPodDecorator;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;

/** The ported examples under the names their manifests in {@code examples/<name>/} call them by. */
public final class Examples {
    private Examples() {
    }

    /** Adds every example to a registration: {@code /bluegreen}, {@code /catset}, ... */
    public static Controllers.Builder addTo(Controllers.Builder builder) {
        return builder
                .composite("bluegreen", BlueGreenDeployment.class, new BlueGreenController())
                .composite("catset", CatSet.class, new CatSetController())
                .composite("configmappropagation", ConfigMapPropagation.class, new ConfigMapPropagationController())
                .decorator("service-per-pod", StatefulSet.class, new ServicePerPodDecorator())
                .decorator("pod-name-label", Pod.class, new PodNameLabelDecorator());
    }
}
