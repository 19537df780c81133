package dev.metahook.manifests;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Where and how the hook service runs: its name (the Deployment, Service and container), its
 * namespace, its image, the Secrets it reads as files, and the neighbours its NetworkPolicy admits:
 * Metacontroller (to the hook port) and the metrics scraper (to the management port). The hooks' URLs
 * follow: {@code http://NAME.NAMESPACE/CONTROLLER/HOOK}.
 */
public record ManifestOptions(String name, String namespace, String image, List<SecretFile> secretFiles,
        Neighbour metacontroller, Neighbour monitoring) {
    private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");

    /**
     * A Secret key the service reads as a file: mounted read-only at {@code /etc/NAME/VOLUME} (the
     * volume is the Secret's name without the service's name in front) and named by {@code env}.
     */
    public record SecretFile(String env, String secretName, String key) {
    }

    /**
     * Pods the NetworkPolicy admits: those of a namespace, all of them when {@code pods} is empty, else
     * those whose labels include {@code pods}.
     */
    public record Neighbour(String namespace, Map<String, String> pods) {
        /** Metacontroller as its own manifests and chart install it: every pod of the namespace {@code metacontroller}. */
        public static final Neighbour METACONTROLLER = new Neighbour("metacontroller", Map.of());
        /** The metrics scraper (Prometheus): every pod of the namespace {@code monitoring}. */
        public static final Neighbour MONITORING = new Neighbour("monitoring", Map.of());

        public Neighbour {
            if (namespace == null || !DNS_LABEL.matcher(namespace).matches()) {
                throw new IllegalArgumentException("'" + namespace + "' is not a namespace name (a DNS label: lower-case letters,"
                        + " digits and dashes, at most 63)");
            }
            pods = java.util.Collections.unmodifiableMap(new TreeMap<>(pods));
            for (Map.Entry<String, String> label : pods.entrySet()) {
                if (label.getKey() == null || label.getKey().isBlank() || label.getValue() == null) {
                    throw new IllegalArgumentException("the pod selector of " + namespace + " has an empty label: " + pods);
                }
            }
        }
    }

    public ManifestOptions {
        java.util.Objects.requireNonNull(metacontroller, "metacontroller");
        java.util.Objects.requireNonNull(monitoring, "monitoring");
        for (String label : List.of(name, namespace)) {
            if (label == null || !DNS_LABEL.matcher(label).matches()) {
                throw new IllegalArgumentException("'" + label + "' is not a DNS label (lower-case letters, digits and dashes,"
                        + " at most 63): the service's name and namespace make the hooks' host name");
            }
        }
        if (image == null || image.isBlank() || image.chars().anyMatch(Character::isWhitespace)) {
            throw new IllegalArgumentException("the image must be a reference without spaces, got '" + image + "'");
        }
        secretFiles = List.copyOf(secretFiles);
    }

    /** A service of this name and image in the namespace {@code NAME-system}. */
    public static ManifestOptions service(String name, String image) {
        return new ManifestOptions(name, name + "-system", image, List.of(), Neighbour.METACONTROLLER, Neighbour.MONITORING);
    }

    public ManifestOptions withNamespace(String namespace) {
        return new ManifestOptions(name, namespace, image, secretFiles, metacontroller, monitoring);
    }

    public ManifestOptions withImage(String image) {
        return new ManifestOptions(name, namespace, image, secretFiles, metacontroller, monitoring);
    }

    /** Metacontroller runs in this namespace, in the pods with these labels (all of its pods when empty). */
    public ManifestOptions withMetacontroller(String namespace, Map<String, String> pods) {
        return new ManifestOptions(name, this.namespace, image, secretFiles, new Neighbour(namespace, pods), monitoring);
    }

    /** The metrics scraper runs in this namespace, in the pods with these labels (all of its pods when empty). */
    public ManifestOptions withMonitoring(String namespace, Map<String, String> pods) {
        return new ManifestOptions(name, this.namespace, image, secretFiles, metacontroller, new Neighbour(namespace, pods));
    }

    /** The service also reads this Secret's key as a file, the file's path in {@code env}. */
    public ManifestOptions withSecretFile(String env, String secretName, String key) {
        List<SecretFile> files = new ArrayList<>(secretFiles);
        files.add(new SecretFile(env, secretName, key));
        return new ManifestOptions(name, namespace, image, files, metacontroller, monitoring);
    }

    /** The hooks' base URL: {@code http://NAME.NAMESPACE}. */
    public String hookBase() {
        return "http://" + host();
    }

    /** The Service's host name inside the cluster. */
    public String host() {
        return name + "." + namespace;
    }

    /** The Secret that holds the bearer token Metacontroller sends and the service checks. */
    public String tokenSecret() {
        return dev.metahook.internal.registration.ControllerManifest.tokenSecret(name);
    }

    String volume(String secretName) {
        return secretName.startsWith(name + "-") ? secretName.substring(name.length() + 1) : secretName;
    }

    String mountPath(String secretName) {
        return "/etc/" + name + "/" + volume(secretName);
    }
}
