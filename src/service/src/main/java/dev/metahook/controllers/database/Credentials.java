package dev.metahook.controllers.database;

import io.fabric8.kubernetes.api.model.Secret;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The credentials Secret. Its password never changes once created (the observed data is returned as
 * it is), and before that it is a keyed hash of the parent's {@code <namespace>/<name>}: two concurrent
 * first syncs, or two replicas given the same key, write the same Secret; two Databases get different
 * passwords; and a Database deleted and created again under the same name (a new uid) gets the
 * password its retained volume {@code data-<name>-0} was initialised with.
 */
final class Credentials {
    static final String USERNAME = "app";
    private static final int PASSWORD_LENGTH = 32;

    private final byte[] key;

    Credentials(byte[] key) {
        if (key.length < 16) {
            throw new IllegalArgumentException("the password key must have at least 16 bytes");
        }
        this.key = key.clone();
    }

    static String secretName(String database) {
        return database + "-credentials";
    }

    Secret secret(Database database, Optional<Secret> observed) {
        String name = database.getMetadata().getName();
        Map<String, String> data = observed.map(Secret::getData)
                .filter(existing -> existing != null && existing.containsKey("password"))
                .orElseGet(() -> Map.of("username", base64(USERNAME), "password", base64(password(identity(database)))));
        Secret secret = new Secret();
        secret.setMetadata(DatabaseChildren.metadata(database, secretName(name)));
        secret.setType("Opaque");
        secret.setData(data);
        return secret;
    }

    /**
     * What the password is keyed by: the namespace and name, which outlive the Database with its
     * retained claim; never the uid, which a re-created Database does not share with its data.
     */
    private static String identity(Database database) {
        return database.getMetadata().getNamespace() + "/" + database.getMetadata().getName();
    }

    String password(String identity) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            byte[] digest = mac.doFinal(("metahook database password " + identity).getBytes(StandardCharsets.UTF_8));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(digest).substring(0, PASSWORD_LENGTH);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every Java runtime has HmacSHA256", e);
        }
    }

    private static String base64(String text) {
        return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }
}
