package dev.metahook.manifests;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.manifests.ManifestOptions.SecretFile;
import dev.metahook.internal.wire.Json;
import java.util.List;

/**
 * The hook service's objects: its Namespace (restricted Pod Security), ServiceAccount, Deployment,
 * Service, PodDisruptionBudget, HorizontalPodAutoscaler and NetworkPolicy. The Deployment runs the
 * image as a non-root user on a read-only root filesystem, with probes on the plain management port,
 * the hook token as a file, no service links, and at least two replicas spread over nodes and zones.
 */
final class HookService {
    static final int PORT = 8080;
    static final int MANAGEMENT_PORT = 8081;
    /** The autoscaler's bounds and CPU target, and the replicas a drain keeps serving. */
    static final int MIN_REPLICAS = 2;
    static final int MAX_REPLICAS = 6;
    static final int CPU_UTILIZATION = 70;
    static final int MIN_AVAILABLE = 1;

    private HookService() {
    }

    static ObjectNode namespace(ManifestOptions options) {
        ObjectNode namespace = object("v1", "Namespace", options.namespace(), null);
        ObjectNode labels = ((ObjectNode) namespace.get("metadata")).putObject("labels").put("app.kubernetes.io/name", options.name());
        for (String mode : List.of("enforce", "warn", "audit")) {
            labels.put("pod-security.kubernetes.io/" + mode, "restricted")
                    .put("pod-security.kubernetes.io/" + mode + "-version", mode.equals("enforce") ? "v1.30" : "latest");
        }
        return namespace;
    }

    static List<ObjectNode> objects(ManifestOptions options) {
        return List.of(serviceAccount(options), deployment(options), service(options), disruptionBudget(options),
                autoscaler(options), networkPolicy(options));
    }

    private static ObjectNode serviceAccount(ManifestOptions options) {
        return labelled(object("v1", "ServiceAccount", options.name(), options.namespace()), options)
                .put("automountServiceAccountToken", false);
    }

    static ObjectNode deployment(ManifestOptions options) {
        ObjectNode deployment = labelled(object("apps/v1", "Deployment", options.name(), options.namespace()), options);
        ObjectNode spec = deployment.putObject("spec");
        spec.putObject("selector").set("matchLabels", podLabels(options));
        ObjectNode template = spec.putObject("template");
        template.putObject("metadata").set("labels", podLabels(options));
        ObjectNode pod = template.putObject("spec").put("serviceAccountName", options.name())
                .put("automountServiceAccountToken", false)
                // without Kubernetes' variables for each Service of the namespace: one named management or
                // metahook would set MANAGEMENT_PORT or METAHOOK_PORT to tcp://IP:PORT, which the service reads
                .put("enableServiceLinks", false)
                .put("terminationGracePeriodSeconds", 30);
        pod.putObject("securityContext").put("runAsNonRoot", true).put("runAsUser", 10001).put("runAsGroup", 10001)
                .putObject("seccompProfile").put("type", "RuntimeDefault");
        ArrayNode spread = pod.putArray("topologySpreadConstraints");
        for (String key : List.of("kubernetes.io/hostname", "topology.kubernetes.io/zone")) {
            spread.addObject().put("maxSkew", 1).put("topologyKey", key).put("whenUnsatisfiable", "ScheduleAnyway")
                    .putObject("labelSelector").set("matchLabels", podLabels(options));
        }
        pod.putArray("containers").add(container(options));
        ArrayNode volumes = pod.putArray("volumes");
        volumes.addObject().put("name", "tmp").putObject("emptyDir").put("sizeLimit", "64Mi");
        secretFiles(options).forEach(file -> volumes.add(fileVolume(file, options)));
        return deployment;
    }

    private static ObjectNode container(ManifestOptions options) {
        ObjectNode container = Json.object().put("name", options.name()).put("image", options.image());
        ArrayNode ports = container.putArray("ports");
        ports.addObject().put("name", "http").put("containerPort", PORT);
        ports.addObject().put("name", "management").put("containerPort", MANAGEMENT_PORT);
        ArrayNode env = container.putArray("env");
        env.addObject().put("name", "PORT").put("value", String.valueOf(PORT));
        env.addObject().put("name", "MANAGEMENT_PORT").put("value", String.valueOf(MANAGEMENT_PORT));
        secretFiles(options).forEach(file -> env.add(fileVariable(file, options)));
        env.addObject().put("name", "SHUTDOWN_TIMEOUT_SECONDS").put("value", "20");
        env.addObject().put("name", "LOG_FORMAT").put("value", "json");
        env.addObject().put("name", "OTEL_SERVICE_NAME").put("value", options.name());
        container.putObject("lifecycle").putObject("preStop").putObject("exec").putArray("command").add("sleep").add("5");
        container.set("startupProbe", probe("/healthz", "management", 2).put("failureThreshold", 30));
        container.set("readinessProbe", probe("/readyz", "management", 5));
        container.set("livenessProbe", probe("/healthz", "management", 10).put("failureThreshold", 3));
        ObjectNode resources = container.putObject("resources");
        resources.putObject("requests").put("cpu", "100m").put("memory", "256Mi");
        resources.putObject("limits").put("memory", "512Mi");
        ObjectNode security = container.putObject("securityContext").put("allowPrivilegeEscalation", false)
                .put("readOnlyRootFilesystem", true);
        security.putObject("capabilities").putArray("drop").add("ALL");
        ArrayNode mounts = container.putArray("volumeMounts");
        mounts.addObject().put("name", "tmp").put("mountPath", "/tmp");
        secretFiles(options).forEach(file -> mounts.add(fileMount(file, options)));
        return container;
    }

    /** The variable that names a Secret file's path. */
    static ObjectNode fileVariable(SecretFile file, ManifestOptions options) {
        return Json.object().put("name", file.env()).put("value", options.mountPath(file.secretName()) + "/" + file.key());
    }

    /** Where a Secret file's volume is mounted, read-only. */
    static ObjectNode fileMount(SecretFile file, ManifestOptions options) {
        return Json.object().put("name", options.volume(file.secretName())).put("mountPath", options.mountPath(file.secretName()))
                .put("readOnly", true);
    }

    /** The volume of a Secret file's Secret. */
    static ObjectNode fileVolume(SecretFile file, ManifestOptions options) {
        ObjectNode volume = Json.object().put("name", options.volume(file.secretName()));
        volume.putObject("secret").put("secretName", file.secretName());
        return volume;
    }

    /** The user's Secret files, then the hook token every generated controller sends ({@code endpointConfigs}). */
    private static List<SecretFile> secretFiles(ManifestOptions options) {
        return java.util.stream.Stream.concat(options.secretFiles().stream(),
                java.util.stream.Stream.of(new SecretFile("AUTH_BEARER_TOKEN_FILE", options.tokenSecret(), "token"))).toList();
    }

    private static ObjectNode probe(String path, String port, int period) {
        ObjectNode probe = Json.object();
        probe.putObject("httpGet").put("path", path).put("port", port);
        return probe.put("periodSeconds", period);
    }

    private static ObjectNode service(ManifestOptions options) {
        ObjectNode service = labelled(object("v1", "Service", options.name(), options.namespace()), options);
        ObjectNode spec = service.putObject("spec").put("type", "ClusterIP");
        spec.set("selector", podLabels(options));
        ArrayNode ports = spec.putArray("ports");
        ports.addObject().put("name", "http").put("port", 80).put("targetPort", "http");
        ports.addObject().put("name", "management").put("port", MANAGEMENT_PORT).put("targetPort", "management");
        return service;
    }

    private static ObjectNode disruptionBudget(ManifestOptions options) {
        ObjectNode budget = labelled(object("policy/v1", "PodDisruptionBudget", options.name(), options.namespace()), options);
        budget.putObject("spec").put("minAvailable", MIN_AVAILABLE).putObject("selector").set("matchLabels", podLabels(options));
        return budget;
    }

    private static ObjectNode autoscaler(ManifestOptions options) {
        ObjectNode autoscaler = labelled(object("autoscaling/v2", "HorizontalPodAutoscaler", options.name(), options.namespace()), options);
        ObjectNode spec = autoscaler.putObject("spec");
        spec.putObject("scaleTargetRef").put("apiVersion", "apps/v1").put("kind", "Deployment").put("name", options.name());
        spec.put("minReplicas", MIN_REPLICAS).put("maxReplicas", MAX_REPLICAS);
        spec.putArray("metrics").addObject().put("type", "Resource").putObject("resource").put("name", "cpu")
                .putObject("target").put("type", "Utilization").put("averageUtilization", CPU_UTILIZATION);
        return autoscaler;
    }

    private static ObjectNode networkPolicy(ManifestOptions options) {
        ObjectNode policy = labelled(object("networking.k8s.io/v1", "NetworkPolicy", options.name(), options.namespace()), options);
        ObjectNode spec = policy.putObject("spec");
        spec.putObject("podSelector").set("matchLabels", podLabels(options));
        spec.putArray("policyTypes").add("Ingress");
        ArrayNode ingress = spec.putArray("ingress");
        admit(ingress, options.metacontroller(), PORT);
        admit(ingress, options.monitoring(), MANAGEMENT_PORT);
        return policy;
    }

    private static void admit(ArrayNode ingress, ManifestOptions.Neighbour neighbour, int port) {
        ObjectNode rule = ingress.addObject();
        rule.putArray("from").add(peer(neighbour));
        rule.putArray("ports").addObject().put("protocol", "TCP").put("port", port);
    }

    /** The neighbour's pods as one NetworkPolicy peer: the namespace and, when given, the pods' labels (both must match). */
    static ObjectNode peer(ManifestOptions.Neighbour neighbour) {
        ObjectNode peer = Json.object();
        peer.putObject("namespaceSelector").putObject("matchLabels").put("kubernetes.io/metadata.name", neighbour.namespace());
        if (!neighbour.pods().isEmpty()) {
            ObjectNode labels = peer.putObject("podSelector").putObject("matchLabels");
            neighbour.pods().forEach(labels::put);
        }
        return peer;
    }

    private static ObjectNode podLabels(ManifestOptions options) {
        return Json.object().put("app.kubernetes.io/name", options.name());
    }

    private static ObjectNode labelled(ObjectNode object, ManifestOptions options) {
        ((ObjectNode) object.get("metadata")).set("labels", podLabels(options));
        return object;
    }

    static ObjectNode object(String apiVersion, String kind, String name, String namespace) {
        ObjectNode object = Json.object().put("apiVersion", apiVersion).put("kind", kind);
        ObjectNode metadata = object.putObject("metadata").put("name", name);
        if (namespace != null) {
            metadata.put("namespace", namespace);
        }
        return object;
    }
}
