package dev.metahook.internal.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Endpoints;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.batch.v1.CronJob;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Resource names from kinds as the Kubernetes model pluralizes them, irregular kinds included. */
class GroupKeyTest {

    @ParameterizedTest
    @CsvSource({"Endpoints, endpoints", "Gateway, gateways", "Ingress, ingresses", "NetworkPolicy, networkpolicies",
            "Policy, policies", "Proxy, proxies", "Status, statuses", "ConfigMap, configmaps", "Namespace, namespaces",
            "StorageClass, storageclasses", "PodDisruptionBudget, poddisruptionbudgets", "HTTPRoute, httproutes",
            "Deployment, deployments", "WebApp, webapps"})
    void pluralizesKindsAsTheKubernetesModelDoes(String kind, String resource) {
        assertEquals(resource, GroupKey.guessResource(kind));
    }

    @ParameterizedTest
    @ValueSource(classes = {Endpoints.class, Namespace.class,
            ConfigMap.class, PersistentVolumeClaim.class,
            StatefulSet.class, CronJob.class})
    void agreesWithThePluralTheModelDeclaresForItsOwnKinds(Class<? extends HasMetadata> type) {
        assertEquals(HasMetadata.getPlural(type),
                GroupKey.guessResource(HasMetadata.getKind(type)));
    }
}
