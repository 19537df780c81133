package dev.metahook.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
    @ValueSource(classes = {io.fabric8.kubernetes.api.model.Endpoints.class, io.fabric8.kubernetes.api.model.Namespace.class,
            io.fabric8.kubernetes.api.model.ConfigMap.class, io.fabric8.kubernetes.api.model.PersistentVolumeClaim.class,
            io.fabric8.kubernetes.api.model.apps.StatefulSet.class, io.fabric8.kubernetes.api.model.batch.v1.CronJob.class})
    void agreesWithThePluralTheModelDeclaresForItsOwnKinds(Class<? extends io.fabric8.kubernetes.api.model.HasMetadata> type) {
        assertEquals(io.fabric8.kubernetes.api.model.HasMetadata.getPlural(type),
                GroupKey.guessResource(io.fabric8.kubernetes.api.model.HasMetadata.getKind(type)));
    }
}
