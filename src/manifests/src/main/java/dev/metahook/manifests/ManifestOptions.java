package dev.metahook.manifests;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Where and how the hook service runs: its name (the Deployment, Service and container), its
 * namespace, its image and the Secrets it reads as files. The hooks' URLs follow:
 * {@code http://NAME.NAMESPACE/CONTROLLER/HOOK}.
 */
public record ManifestOptions(String name, String namespace, String image, List<SecretFile> secretFiles) {
    private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");

    /**
     * A Secret key the service reads as a file: mounted read-only at {@code /etc/NAME/VOLUME} (the
     * volume is the Secret's name without the service's name in front) and named by {@code env}.
     */
    public record SecretFile(String env, String secretName, String key) {
    }

    public ManifestOptions {
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
        return new ManifestOptions(name, name + "-system", image, List.of());
    }

    public ManifestOptions withNamespace(String namespace) {
        return new ManifestOptions(name, namespace, image, secretFiles);
    }

    public ManifestOptions withImage(String image) {
        return new ManifestOptions(name, namespace, image, secretFiles);
    }

    /** The service also reads this Secret's key as a file, the file's path in {@code env}. */
    public ManifestOptions withSecretFile(String env, String secretName, String key) {
        List<SecretFile> files = new ArrayList<>(secretFiles);
        files.add(new SecretFile(env, secretName, key));
        return new ManifestOptions(name, namespace, image, files);
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
