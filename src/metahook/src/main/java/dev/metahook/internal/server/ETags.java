package dev.metahook.internal.server;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Base64;

/**
 * Strong ETags from a response's bytes. Metacontroller keys its cache by parent only and sends our
 * ETag back as it got it, so a collision would serve a stale answer: a cryptographic hash, not a
 * checksum.
 */
final class ETags {
    private ETags() {
    }

    static String of(byte[] body) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(body);
            return "\"" + Base64.getUrlEncoder().withoutPadding().encodeToString(Arrays.copyOf(digest, 18)) + "\"";
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
