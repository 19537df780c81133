package dev.metahook.examples;

import dev.metahook.api.Child;
import dev.metahook.api.ConditionStatus;
import dev.metahook.api.Controllers;
import dev.metahook.api.Declaration;
import dev.metahook.api.Update;
import dev.metahook.api.Update.StatusCheck;
import dev.metahook.examples.bluegreen.BlueGreenController;
import dev.metahook.examples.bluegreen.BlueGreenDeployment;
import dev.metahook.examples.catset.CatSet;
import dev.metahook.examples.catset.CatSetController;
import dev.metahook.examples.configmappropagation.ConfigMapPropagation;
import dev.metahook.examples.configmappropagation.ConfigMapPropagationController;
import dev.metahook.examples.serviceperpod.PodNameLabelDecorator;
import dev.metahook.examples.serviceperpod.ServicePerPodDecorator;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;

/**
 * The ported examples under the names their manifests in {@code examples/<name>/} call them by. Each
 * registration declares what its CompositeController or DecoratorController says; the committed
 * {@code controller.yaml} files are generated from it ({@code manifests --examples examples};
 * ExampleManifestsDriftTest).
 */
public final class Examples {
    private Examples() {
    }

    /** Adds every example to a registration: {@code /bluegreen}, {@code /catset}, ... */
    public static Controllers.Builder addTo(Controllers.Builder builder) {
        return builder
                .composite("bluegreen", BlueGreenDeployment.class, new BlueGreenController(), Declaration
                        .children(Child.of(Service.class, Update.IN_PLACE), Child.of(ReplicaSet.class, Update.IN_PLACE))
                        .generateSelector(false))
                .composite("catset", CatSet.class, new CatSetController(), Declaration
                        .children(Child.of(Pod.class, Update.rollingRecreate(StatusCheck.condition("Ready", ConditionStatus.TRUE))),
                                Child.of(PersistentVolumeClaim.class, Update.ON_DELETE))
                        .generateSelector(false)
                        .revisionHistory("spec.template"))
                .composite("configmappropagation", ConfigMapPropagation.class, new ConfigMapPropagationController(), Declaration
                        .children(Child.of(ConfigMap.class, Update.IN_PLACE))
                        .generateSelector(true)
                        .requiresRelated())
                .decorator("service-per-pod", StatefulSet.class, new ServicePerPodDecorator(), Declaration
                        .attachments(Child.of(Service.class, Update.ON_DELETE))
                        .annotationSelector(exist("service-per-pod-label", "service-per-pod-ports")))
                .decorator("pod-name-label", Pod.class, new PodNameLabelDecorator(), Declaration.none()
                        .labelSelector(new LabelSelectorBuilder().addNewMatchExpression().withKey("pod-name")
                                .withOperator("DoesNotExist").endMatchExpression().build())
                        .annotationSelector(exist("pod-name-label")));
    }

    private static LabelSelector exist(String... keys) {
        LabelSelectorBuilder selector = new LabelSelectorBuilder();
        for (String key : keys) {
            selector.addNewMatchExpression().withKey(key).withOperator("Exists").endMatchExpression();
        }
        return selector.build();
    }
}
