package dev.metahook.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The key Database passwords are derived under: {@code METAHOOK_DATABASE_KEY} (the key itself) or
 * {@code METAHOOK_DATABASE_KEY_FILE} (a file holding it, e.g. a mounted Secret). Without either, a
 * key made at start-up: replicas then derive different first passwords, a warning in a pod.
 */
final class DatabaseKey {
    private static final Logger LOG = LoggerFactory.getLogger(DatabaseKey.class);
    private static final int MIN_BYTES = 16;

    private DatabaseKey() {
    }

    static byte[] fromEnvironment(Map<String, String> env) {
        String inline = env.get("METAHOOK_DATABASE_KEY");
        String file = env.get("METAHOOK_DATABASE_KEY_FILE");
        if (inline != null && !inline.isBlank()) {
            return checked(inline.strip().getBytes(StandardCharsets.UTF_8), "METAHOOK_DATABASE_KEY");
        }
        if (file != null && !file.isBlank()) {
            return checked(read(Path.of(file)), "METAHOOK_DATABASE_KEY_FILE (" + file + ")");
        }
        logMadeKey(env);
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        return key;
    }

    /**
     * In a pod (Kubernetes sets {@code KUBERNETES_SERVICE_HOST} in every one) replicas may run, and the manifests
     * name a key file: a missing key there is for the user to fix. Elsewhere, one process on a workstation, the
     * key made at start-up is all it needs.
     */
    private static void logMadeKey(Map<String, String> env) {
        String unset = "neither METAHOOK_DATABASE_KEY nor METAHOOK_DATABASE_KEY_FILE is set: Database passwords are derived"
                + " under a key made at start-up";
        if (env.containsKey("KUBERNETES_SERVICE_HOST")) {
            LOG.warn("{}, so several replicas of this service disagree on a new Database's first password:"
                    + " set METAHOOK_DATABASE_KEY_FILE to a mounted Secret", unset);
        } else {
            LOG.info("{}, which is enough for one process outside Kubernetes", unset);
        }
    }

    private static byte[] read(Path file) {
        try {
            return new String(Files.readAllBytes(file), StandardCharsets.UTF_8).strip().getBytes(StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalArgumentException("METAHOOK_DATABASE_KEY_FILE cannot be read: " + e.getMessage());
        }
    }

    private static byte[] checked(byte[] key, String source) {
        if (key.length < MIN_BYTES) {
            Arrays.fill(key, (byte) 0);
            throw new IllegalArgumentException(source + " must hold at least " + MIN_BYTES + " bytes");
        }
        return key;
    }
}
