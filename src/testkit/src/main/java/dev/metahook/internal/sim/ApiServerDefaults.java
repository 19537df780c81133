package dev.metahook.internal.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.internal.wire.Json;

/**
 * What the API server of a {@link KubernetesVersion} writes into a built-in object beyond what the
 * client sent, as far as a Metacontroller hook can see it: the defaulted fields and an embedded
 * ObjectMeta that is always there (empty when nothing was sent), with a {@code "creationTimestamp": null}
 * up to 1.33 and without one from 1.34, and a StatefulSet's {@code maxUnavailable} from 1.37 alone
 * ({@link StorageChange}); each of them seen on real v1.37.2 and v1.29.15 API servers
 * ({@code fixtures/captured/v1.37.2-stored.json}, ApiServerDefaultsIT) and read from the source of the minors between. A hook that omits them is fine where
 * Metacontroller merges (maps, lists with a merge key); inside a list it replaces (a StatefulSet's
 * {@code volumeClaimTemplates}, a NetworkPolicy's rules) the difference is an update on every call.
 * Objects of other kinds (custom resources) are stored as sent.
 */
final class ApiServerDefaults {
    private ApiServerDefaults() {
    }

    /** Fills in what the API server would, in place; {@code uid} is the object's own (a Job's selector names it). */
    static void apply(ObjectNode object, String uid, KubernetesVersion version) {
        EmbeddedMetadata metadata = version.has(StorageChange.NO_NULL_CREATION_TIMESTAMP) ? EmbeddedMetadata.WITHOUT_NULL
                : EmbeddedMetadata.WITH_NULL;
        String group = group(object.path("apiVersion").asText());
        ObjectNode spec = object.get("spec") instanceof ObjectNode s ? s : null;
        switch (object.path("kind").asText() + "." + group) {
            case "Deployment.apps" -> deployment(spec, metadata);
            case "StatefulSet.apps" -> statefulSet(spec, metadata, version);
            case "ReplicaSet.apps" -> workload(spec, metadata);
            case "DaemonSet.apps" -> daemonSet(object, spec, metadata);
            case "Job.batch" -> job(spec, uid, object.path("metadata").path("name").asText(), metadata);
            case "CronJob.batch" -> cronJob(spec, metadata);
            case "Pod." -> pod(object, spec);
            case "Service." -> service(spec);
            case "Secret." -> putIfAbsent(object, "type", "Opaque");
            case "NetworkPolicy.networking.k8s.io" -> networkPolicy(spec);
            default -> { }
        }
    }

    /**
     * The status a new object of a built-in workload kind or a Service is stored with, before any
     * controller wrote one (the API server's own, v1.37.2): the counts that are never left out, or an
     * empty object. Other kinds are stored without one.
     */
    static void initialStatus(ObjectNode object) {
        if (object.has("status")) {
            return;
        }
        switch (object.path("kind").asText() + "." + group(object.path("apiVersion").asText())) {
            case "Deployment.apps", "Job.batch", "CronJob.batch" -> object.putObject("status");
            case "StatefulSet.apps" -> object.putObject("status").put("availableReplicas", 0).put("replicas", 0);
            case "ReplicaSet.apps" -> object.putObject("status").put("replicas", 0);
            case "DaemonSet.apps" -> object.putObject("status").put("currentNumberScheduled", 0).put("desiredNumberScheduled", 0)
                    .put("numberMisscheduled", 0).put("numberReady", 0);
            case "Service." -> object.putObject("status").putObject("loadBalancer");
            default -> { }
        }
    }

    /** A DaemonSet's defaults, and the annotation with its template's generation that the API server still writes. */
    private static void daemonSet(ObjectNode object, ObjectNode spec, EmbeddedMetadata embedded) {
        if (spec == null) {
            return;
        }
        putIfAbsent(spec, "revisionHistoryLimit", 10);
        ObjectNode strategy = spec.withObjectProperty("updateStrategy");
        putIfAbsent(strategy, "type", "RollingUpdate");
        if ("RollingUpdate".equals(strategy.path("type").asText())) {
            ObjectNode rolling = strategy.withObjectProperty("rollingUpdate");
            putIfAbsent(rolling, "maxSurge", 0);
            putIfAbsent(rolling, "maxUnavailable", 1);
        }
        podTemplate(spec.get("template"), embedded);
        ObjectNode metadata = object.withObjectProperty("metadata");
        putIfAbsent(Apply.map(metadata, "annotations"), "deprecated.daemonset.template.generation",
                Long.toString(metadata.path("generation").asLong(1)));
    }

    private static void deployment(ObjectNode spec, EmbeddedMetadata metadata) {
        if (spec == null) {
            return;
        }
        workload(spec, metadata);
        putIfAbsent(spec, "progressDeadlineSeconds", 600);
        putIfAbsent(spec, "revisionHistoryLimit", 10);
        ObjectNode strategy = spec.withObjectProperty("strategy");
        putIfAbsent(strategy, "type", "RollingUpdate");
        if ("RollingUpdate".equals(strategy.path("type").asText())) {
            ObjectNode rolling = strategy.withObjectProperty("rollingUpdate");
            putIfAbsent(rolling, "maxSurge", "25%");
            putIfAbsent(rolling, "maxUnavailable", "25%");
        }
    }

    private static void statefulSet(ObjectNode spec, EmbeddedMetadata metadata, KubernetesVersion version) {
        if (spec == null) {
            return;
        }
        workload(spec, metadata);
        putIfAbsent(spec, "podManagementPolicy", "OrderedReady");
        putIfAbsent(spec, "revisionHistoryLimit", 10);
        ObjectNode retention = spec.withObjectProperty("persistentVolumeClaimRetentionPolicy");
        putIfAbsent(retention, "whenDeleted", "Retain");
        putIfAbsent(retention, "whenScaled", "Retain");
        ObjectNode strategy = spec.withObjectProperty("updateStrategy");
        putIfAbsent(strategy, "type", "RollingUpdate");
        if ("RollingUpdate".equals(strategy.path("type").asText())) {
            ObjectNode rolling = strategy.withObjectProperty("rollingUpdate");
            if (version.has(StorageChange.STATEFULSET_MAX_UNAVAILABLE)) {
                putIfAbsent(rolling, "maxUnavailable", 1);
            }
            putIfAbsent(rolling, "partition", 0);
        }
        for (JsonNode claim : spec.path("volumeClaimTemplates")) {
            if (claim instanceof ObjectNode template) {
                putIfAbsent(template, "apiVersion", "v1");
                putIfAbsent(template, "kind", "PersistentVolumeClaim");
                metadata.write(template);
                putIfAbsent(template.withObjectProperty("spec"), "volumeMode", "Filesystem");
                putIfAbsent(template.withObjectProperty("status"), "phase", "Pending");
            }
        }
    }

    /** Replicas and the pod template of a Deployment, StatefulSet or ReplicaSet. */
    private static void workload(ObjectNode spec, EmbeddedMetadata metadata) {
        if (spec == null) {
            return;
        }
        putIfAbsent(spec, "replicas", 1);
        podTemplate(spec.get("template"), metadata);
    }

    private static void job(ObjectNode spec, String uid, String name, EmbeddedMetadata metadata) {
        if (spec == null) {
            return;
        }
        putIfAbsent(spec, "backoffLimit", 6);
        putIfAbsent(spec, "completionMode", "NonIndexed");
        putIfAbsent(spec, "completions", 1);
        putIfAbsent(spec, "parallelism", 1);
        putIfAbsent(spec, "podReplacementPolicy", "TerminatingOrFailed");
        if (!spec.has("suspend")) {
            spec.put("suspend", false);
        }
        if (uid != null && !spec.has("selector") && spec.get("template") instanceof ObjectNode template) {
            if (!spec.has("manualSelector")) {
                spec.put("manualSelector", false);
            }
            spec.putObject("selector").putObject("matchLabels").put("batch.kubernetes.io/controller-uid", uid);
            template.withObjectProperty("metadata").withObjectProperty("labels").put("batch.kubernetes.io/controller-uid", uid)
                    .put("batch.kubernetes.io/job-name", name).put("controller-uid", uid).put("job-name", name);
        }
        podTemplate(spec.get("template"), metadata);
    }

    private static void cronJob(ObjectNode spec, EmbeddedMetadata metadata) {
        if (spec == null) {
            return;
        }
        putIfAbsent(spec, "concurrencyPolicy", "Allow");
        putIfAbsent(spec, "failedJobsHistoryLimit", 1);
        putIfAbsent(spec, "successfulJobsHistoryLimit", 3);
        if (!spec.has("suspend")) {
            spec.put("suspend", false);
        }
        if (spec.get("jobTemplate") instanceof ObjectNode jobTemplate) {
            metadata.write(jobTemplate);
            if (jobTemplate.get("spec") instanceof ObjectNode jobSpec) {
                // v1.37.2 defaults none of a Job's own fields inside a CronJob's template, only its pod template's
                podTemplate(jobSpec.get("template"), metadata);
            }
        }
    }

    private static void podTemplate(JsonNode node, EmbeddedMetadata metadata) {
        if (node instanceof ObjectNode template) {
            metadata.write(template);
            podSpec(template.get("spec") instanceof ObjectNode spec ? spec : null);
        }
    }

    /**
     * The metadata object of an embedded ObjectMeta, written even when empty, and its zero
     * {@code creationTimestamp} (Go's zero time, whatever was sent): {@code null} up to 1.33, left out from 1.34.
     */
    private enum EmbeddedMetadata {
        WITH_NULL, WITHOUT_NULL;

        void write(ObjectNode holder) {
            ObjectNode metadata = holder.withObjectProperty("metadata");
            if (this == WITH_NULL && !metadata.hasNonNull("creationTimestamp")) {
                metadata.putNull("creationTimestamp");
            } else if (this == WITHOUT_NULL && metadata.path("creationTimestamp").isNull()) {
                metadata.remove("creationTimestamp");
            }
        }
    }

    /** A new pod is Pending, with the quality of service its containers' resources give it. */
    private static void pod(ObjectNode pod, ObjectNode spec) {
        podSpec(spec);
        if (!pod.has("status")) {
            pod.putObject("status").put("phase", "Pending").put("qosClass", qosClass(spec));
        }
    }

    /** BestEffort without any request or limit, Guaranteed when every container limits cpu and memory and requests what it limits. */
    static String qosClass(ObjectNode spec) {
        boolean any = false;
        boolean guaranteed = true;
        for (String list : new String[] {"initContainers", "containers"}) {
            for (JsonNode container : spec == null ? Json.object() : spec.path(list)) {
                JsonNode requests = container.path("resources").path("requests");
                JsonNode limits = container.path("resources").path("limits");
                any |= requests.size() > 0 || limits.size() > 0;
                for (String resource : new String[] {"cpu", "memory"}) {
                    JsonNode limit = limits.get(resource);
                    JsonNode request = requests.get(resource);
                    guaranteed &= limit != null && (request == null || request.asText().equals(limit.asText()));
                }
            }
        }
        return !any ? "BestEffort" : guaranteed ? "Guaranteed" : "Burstable";
    }

    private static void podSpec(ObjectNode spec) {
        if (spec == null) {
            return;
        }
        putIfAbsent(spec, "dnsPolicy", "ClusterFirst");
        putIfAbsent(spec, "restartPolicy", "Always");
        putIfAbsent(spec, "schedulerName", "default-scheduler");
        if (!spec.has("securityContext")) {
            spec.putObject("securityContext");
        }
        putIfAbsent(spec, "terminationGracePeriodSeconds", 30);
        for (String list : new String[] {"initContainers", "containers"}) {
            for (JsonNode container : spec.path(list)) {
                if (container instanceof ObjectNode c) {
                    container(c);
                }
            }
        }
    }

    private static void container(ObjectNode container) {
        String image = container.path("image").asText("");
        putIfAbsent(container, "imagePullPolicy", pullsAlways(image) ? "Always" : "IfNotPresent");
        if (!container.has("resources")) {
            container.putObject("resources");
        }
        putIfAbsent(container, "terminationMessagePath", "/dev/termination-log");
        putIfAbsent(container, "terminationMessagePolicy", "File");
        protocols(container.path("ports"));
        for (String probe : new String[] {"livenessProbe", "readinessProbe", "startupProbe"}) {
            if (container.get(probe) instanceof ObjectNode p) {
                putIfAbsent(p, "failureThreshold", 3);
                putIfAbsent(p, "periodSeconds", 10);
                putIfAbsent(p, "successThreshold", 1);
                putIfAbsent(p, "timeoutSeconds", 1);
            }
        }
    }

    /** An image without a tag or digest, or tagged {@code latest}, is pulled every time. */
    static boolean pullsAlways(String image) {
        if (image.contains("@")) {
            return false;
        }
        int slash = image.lastIndexOf('/');
        int colon = image.lastIndexOf(':');
        return colon <= slash || image.substring(colon + 1).equals("latest");
    }

    private static void service(ObjectNode spec) {
        if (spec == null) {
            return;
        }
        putIfAbsent(spec, "type", "ClusterIP");
        putIfAbsent(spec, "sessionAffinity", "None");
        if (!"ExternalName".equals(spec.path("type").asText())) {
            putIfAbsent(spec, "internalTrafficPolicy", "Cluster");
            if (!spec.has("ipFamilies")) {
                spec.putArray("ipFamilies").add("IPv4");
            }
            putIfAbsent(spec, "ipFamilyPolicy", "SingleStack");
        }
        for (JsonNode port : spec.path("ports")) {
            if (port instanceof ObjectNode p) {
                putIfAbsent(p, "protocol", "TCP");
                if (!p.has("targetPort") && p.has("port")) {
                    p.set("targetPort", p.get("port").deepCopy());
                }
            }
        }
    }

    private static void networkPolicy(ObjectNode spec) {
        if (spec == null) {
            return;
        }
        for (String direction : new String[] {"ingress", "egress"}) {
            for (JsonNode rule : spec.path(direction)) {
                protocols(rule.path("ports"));
            }
        }
        if (!spec.has("policyTypes")) {
            var types = spec.putArray("policyTypes").add("Ingress");
            if (spec.has("egress")) {
                types.add("Egress");
            }
        }
    }

    private static void protocols(JsonNode ports) {
        for (JsonNode port : ports) {
            if (port instanceof ObjectNode p) {
                putIfAbsent(p, "protocol", "TCP");
            }
        }
    }

    private static void putIfAbsent(ObjectNode object, String field, String value) {
        if (!object.has(field)) {
            object.put(field, value);
        }
    }

    private static void putIfAbsent(ObjectNode object, String field, int value) {
        if (!object.has(field)) {
            object.put(field, value);
        }
    }

    private static String group(String apiVersion) {
        int slash = apiVersion.indexOf('/');
        return slash < 0 ? "" : apiVersion.substring(0, slash);
    }
}
