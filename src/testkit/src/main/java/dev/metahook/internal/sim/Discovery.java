package dev.metahook.internal.sim;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahook.internal.wire.GroupKey;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * What the simulated API server serves, as its discovery says it: the built-in kinds of Kubernetes 1.29 to 1.37 (each
 * group's GA version, a kind served from a later minor included), Metacontroller's own CRDs, and the
 * CustomResourceDefinitions given to the check (their served versions). Metacontroller looks every child up here
 * (pkg/dynamic/discovery, v4.17.2): a desired child of a kind it does not find fails the sync ({@code discovery: can't
 * find kind ...}), a declared child resource it does not find keeps the controller from starting.
 *
 * <p>Where a resource may also come from a definition the check was not given (a parent, a decorator's target, a
 * related rule), discovery is trusted only for the API versions it {@linkplain #knows knows}: a built-in one, or one
 * of a group some given CustomResourceDefinition defines. Any other is assumed served ({@link #mayServe}).
 */
public final class Discovery {
    /** The built-in kinds by apiVersion, with Metacontroller's CRDs, which are installed with it. */
    private static final Map<String, List<String>> BUILT_IN = Map.ofEntries(
            Map.entry("v1", List.of("Binding", "ComponentStatus", "ConfigMap", "Endpoints", "Event", "LimitRange", "Namespace", "Node",
                    "PersistentVolume", "PersistentVolumeClaim", "Pod", "PodTemplate", "ReplicationController", "ResourceQuota", "Secret",
                    "Service", "ServiceAccount")),
            Map.entry("apps/v1", List.of("ControllerRevision", "DaemonSet", "Deployment", "ReplicaSet", "StatefulSet")),
            Map.entry("batch/v1", List.of("CronJob", "Job")),
            Map.entry("autoscaling/v1", List.of("HorizontalPodAutoscaler")),
            Map.entry("autoscaling/v2", List.of("HorizontalPodAutoscaler")),
            Map.entry("networking.k8s.io/v1", List.of("Ingress", "IngressClass", "IPAddress", "NetworkPolicy", "ServiceCIDR")),
            Map.entry("policy/v1", List.of("PodDisruptionBudget")),
            Map.entry("rbac.authorization.k8s.io/v1", List.of("ClusterRole", "ClusterRoleBinding", "Role", "RoleBinding")),
            Map.entry("storage.k8s.io/v1", List.of("CSIDriver", "CSINode", "CSIStorageCapacity", "StorageClass", "VolumeAttachment",
                    "VolumeAttributesClass")),
            Map.entry("coordination.k8s.io/v1", List.of("Lease")),
            Map.entry("discovery.k8s.io/v1", List.of("EndpointSlice")),
            Map.entry("events.k8s.io/v1", List.of("Event")),
            Map.entry("scheduling.k8s.io/v1", List.of("PriorityClass")),
            Map.entry("node.k8s.io/v1", List.of("RuntimeClass")),
            Map.entry("certificates.k8s.io/v1", List.of("CertificateSigningRequest", "ClusterTrustBundle", "PodCertificateRequest")),
            Map.entry("admissionregistration.k8s.io/v1", List.of("MutatingAdmissionPolicy", "MutatingAdmissionPolicyBinding",
                    "MutatingWebhookConfiguration", "ValidatingAdmissionPolicy", "ValidatingAdmissionPolicyBinding",
                    "ValidatingWebhookConfiguration")),
            Map.entry("authentication.k8s.io/v1", List.of("SelfSubjectReview", "TokenReview")),
            Map.entry("authorization.k8s.io/v1", List.of("LocalSubjectAccessReview", "SelfSubjectAccessReview", "SelfSubjectRulesReview",
                    "SubjectAccessReview")),
            Map.entry("resource.k8s.io/v1", List.of("DeviceClass", "DeviceTaintRule", "ResourceClaim", "ResourceClaimTemplate",
                    "ResourceSlice")),
            Map.entry("apiextensions.k8s.io/v1", List.of("CustomResourceDefinition")),
            Map.entry("apiregistration.k8s.io/v1", List.of("APIService")),
            Map.entry("flowcontrol.apiserver.k8s.io/v1", List.of("FlowSchema", "PriorityLevelConfiguration")),
            Map.entry("metacontroller.k8s.io/v1alpha1", List.of("CompositeController", "DecoratorController", "ControllerRevision")));

    /** Kind by apiVersion and resource: {@code "apps/v1 deployments"} is {@code Deployment}. */
    private final Map<String, String> kinds;
    /** The CustomResourceDefinitions given, in the order given. */
    private final List<Definition> definitions;

    /**
     * A given CustomResourceDefinition: its group, plural and kind, the other names it answers to ({@code singular},
     * {@code shortNames}), and each version it lists.
     */
    record Definition(String group, String plural, String kind, List<String> otherNames, List<Version> versions) {
        /** Its name, as Metacontroller looks it up: {@code widgets.example.com}. */
        String name() {
            return plural + "." + group;
        }

        /** Whether a resource is this definition's, by its plural or by a name that is not the resource's. */
        boolean names(String resource) {
            return plural.equals(resource) || kind.equals(resource) || otherNames.contains(resource);
        }

        Optional<Version> version(String name) {
            return versions.stream().filter(version -> version.name().equals(name)).findFirst();
        }

        /** The versions it serves, for a message: {@code v1, v2}, or {@code none}. */
        String served() {
            List<String> names = versions.stream().filter(Version::served).map(Version::name).toList();
            return names.isEmpty() ? "none" : String.join(", ", names);
        }
    }

    /** One version a CustomResourceDefinition lists: whether it is served, and whether it has the status subresource. */
    record Version(String name, boolean served, boolean status) {
    }

    private Discovery(Map<String, String> kinds, List<Definition> definitions) {
        this.kinds = Map.copyOf(kinds);
        this.definitions = List.copyOf(definitions);
    }

    /** The built-in kinds, and those of every CustomResourceDefinition among {@code objects} in each version it serves. */
    public static Discovery of(List<? extends JsonNode> objects) {
        Map<String, String> kinds = new LinkedHashMap<>();
        BUILT_IN.forEach((apiVersion, names) -> names.forEach(kind -> kinds.put(apiVersion + " " + GroupKey.guessResource(kind), kind)));
        List<Definition> definitions = new ArrayList<>();
        for (JsonNode object : objects) {
            if (!object.path("kind").asText().equals("CustomResourceDefinition")) {
                continue;
            }
            JsonNode spec = object.path("spec");
            List<Version> versions = new ArrayList<>();
            for (JsonNode version : spec.path("versions")) {
                versions.add(new Version(version.path("name").asText(), version.path("served").asBoolean(true),
                        version.path("subresources").path("status").isObject()));
            }
            List<String> otherNames = new ArrayList<>();
            otherNames.add(spec.at("/names/singular").asText(spec.at("/names/kind").asText().toLowerCase(Locale.ROOT)));
            spec.at("/names/shortNames").forEach(name -> otherNames.add(name.asText()));
            Definition definition = new Definition(spec.path("group").asText(), spec.at("/names/plural").asText(), spec.at("/names/kind").asText(),
                    List.copyOf(otherNames), List.copyOf(versions));
            definitions.add(definition);
            versions.stream().filter(Version::served).forEach(version ->
                    kinds.put(definition.group() + "/" + version.name() + " " + definition.plural(), definition.kind()));
        }
        return new Discovery(kinds, definitions);
    }

    /** Whether a child of this apiVersion and kind can be written ({@code dynClient.Kind} finds it). */
    boolean servesKind(String apiVersion, String kind) {
        return kinds.entrySet().stream().anyMatch(entry -> entry.getValue().equals(kind) && apiVersionOf(entry.getKey()).equals(apiVersion));
    }

    /** Whether a declared resource can be watched ({@code dynClient.Resource} finds it). */
    boolean servesResource(String apiVersion, String resource) {
        return kinds.containsKey(apiVersion + " " + resource);
    }

    /**
     * Whether the check can tell if this resource is served: its apiVersion is a built-in one, whose resources are all
     * listed here, or a given CustomResourceDefinition of its group answers to the name (its plural, kind, singular or
     * a short name: discovery finds a resource by its plural alone). Of any other resource, a definition the check was
     * not given may define it.
     */
    boolean knows(String apiVersion, String resource) {
        String group = groupOf(apiVersion);
        return BUILT_IN.containsKey(apiVersion)
                || definitions.stream().anyMatch(definition -> definition.group().equals(group) && definition.names(resource));
    }

    /** Whether the cluster may serve this resource: it does, or the check cannot know ({@link #knows}), and assumes it does. */
    public boolean mayServe(String apiVersion, String resource) {
        return servesResource(apiVersion, resource) || !knows(apiVersion, resource);
    }

    /** The given CustomResourceDefinition of this group and plural, as Metacontroller names it ({@code widgets.example.com}). */
    Optional<Definition> definition(String group, String plural) {
        return definitions.stream().filter(definition -> definition.group().equals(group) && definition.plural().equals(plural)).findFirst();
    }

    /**
     * Why a resource that {@link #mayServe} refuses is not served, for a message: what the given definition or the
     * built-in kinds serve instead.
     */
    String whyUnserved(String apiVersion, String resource) {
        String group = groupOf(apiVersion);
        String version = apiVersion.substring(apiVersion.indexOf('/') + 1);
        Optional<Definition> named = definitions.stream().filter(definition -> definition.group().equals(group) && definition.names(resource))
                .findFirst();
        if (named.isPresent() && !named.get().plural().equals(resource)) {
            return "the CustomResourceDefinition " + named.get().name() + " names its resource " + named.get().plural() + ", and discovery"
                    + " finds a resource by that plural alone";
        }
        if (named.isPresent()) {
            return "the CustomResourceDefinition " + named.get().name() + " serves " + named.get().served()
                    + (named.get().version(version).isPresent() ? ", and lists " + version + " with served: false" : ", and does not list " + version);
        }
        List<String> elsewhere = kinds.keySet().stream().filter(key -> key.endsWith(" " + resource)).map(Discovery::apiVersionOf)
                .sorted().toList();
        String plural = GroupKey.guessResource(resource);
        return "Kubernetes serves no resource " + resource + " in " + apiVersion
                + (!elsewhere.isEmpty() ? " (it serves " + resource + " in " + String.join(", ", elsewhere) + ")"
                : !plural.equals(resource) && servesResource(apiVersion, plural) ? " (a resource is named by its plural in lower case: "
                + plural + ")" : "");
    }

    /**
     * What to do about a resource that {@link #mayServe} refuses, for a message: serve the version in its definition, or
     * give the definition or fix the names in {@code field} ({@code parentResource}, {@code the rule}).
     */
    String remedy(String apiVersion, String resource, String field) {
        String version = apiVersion.substring(apiVersion.indexOf('/') + 1);
        return definition(groupOf(apiVersion), resource)
                .map(definition -> "serve " + version + " in the CustomResourceDefinition " + definition.name() + ", or name a version it serves")
                .orElse("give the CustomResourceDefinition that defines it with the controller, or fix " + field
                        + "'s apiVersion or resource (the plural)");
    }

    /** The apiVersions that serve a kind, in order, for a message: {@code apps/v1} for a Deployment. */
    List<String> versionsOf(String kind) {
        // in order: the map's own order changes from one run to the next, and the same check must print the same bytes
        return kinds.entrySet().stream().filter(entry -> entry.getValue().equals(kind)).map(entry -> apiVersionOf(entry.getKey()))
                .sorted().toList();
    }

    private static String apiVersionOf(String key) {
        return key.substring(0, key.indexOf(' '));
    }

    /** The API group of an apiVersion: empty for the core group's {@code v1}. */
    static String groupOf(String apiVersion) {
        return apiVersion.contains("/") ? apiVersion.substring(0, apiVersion.indexOf('/')) : "";
    }
}
