package dev.metahook.server;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Objects;

/**
 * Checks the credentials Metacontroller (v4.16+) sends: a bearer token or basic auth. The accepted
 * values live in files (mounted Secrets) and are read again when a file changes, so rotation needs
 * no restart; a file may hold several values, one per line, so old and new both work while
 * Metacontroller still holds the old one. Values are compared in constant time.
 */
final class Authenticator {
    private static final Duration RECHECK = Duration.ofSeconds(1);

    private final ServerConfig.Auth config;
    private final Clock clock;
    private final WatchedFile tokens;
    private final WatchedFile usernames;
    private final WatchedFile passwords;

    Authenticator(ServerConfig.Auth config, Clock clock) {
        this.config = config;
        this.clock = clock;
        this.tokens = config.bearerTokenFile() == null ? null : new WatchedFile(config.bearerTokenFile());
        this.usernames = config.basicUsernameFile() == null ? null : new WatchedFile(config.basicUsernameFile());
        this.passwords = config.basicPasswordFile() == null ? null : new WatchedFile(config.basicPasswordFile());
        if (config.enabled()) {
            check(tokens);
            check(usernames);
            check(passwords);
        }
    }

    boolean enabled() {
        return config.enabled();
    }

    /** Whether the Authorization header carries accepted credentials. */
    boolean allows(String authorization) {
        if (!config.enabled()) {
            return true;
        }
        if (authorization == null) {
            return false;
        }
        if (tokens != null && authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return anyEquals(tokens.values(), authorization.substring(7).trim());
        }
        if (usernames != null && authorization.regionMatches(true, 0, "Basic ", 0, 6)) {
            return basic(authorization.substring(6).trim());
        }
        return false;
    }

    /** The scheme to name in {@code WWW-Authenticate}. */
    String challenge() {
        return tokens != null ? "Bearer realm=\"metahook\"" : "Basic realm=\"metahook\"";
    }

    private boolean basic(String encoded) {
        String decoded;
        try {
            decoded = new String(Base64.getDecoder().decode(encoded), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return false;
        }
        int colon = decoded.indexOf(':');
        if (colon < 0) {
            return false;
        }
        boolean user = anyEquals(usernames.values(), decoded.substring(0, colon));
        boolean password = anyEquals(passwords.values(), decoded.substring(colon + 1));
        return user & password;
    }

    /** Compares digests, so neither content nor length leaks through timing; checks every value. */
    private static boolean anyEquals(List<String> accepted, String given) {
        byte[] digest = sha256(given);
        boolean match = false;
        for (String value : accepted) {
            match |= MessageDigest.isEqual(digest, sha256(value));
        }
        return match;
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    private static void check(WatchedFile file) {
        if (file != null && file.values().isEmpty()) {
            throw new IllegalArgumentException(file.path + " holds no credentials");
        }
    }

    /** A credentials file, read again when its modification time or size changed, looked at at most once a second. */
    private final class WatchedFile {
        private final Path path;
        private volatile List<String> values = List.of();
        private volatile Instant checked = Instant.MIN;
        private volatile Object version;

        WatchedFile(Path path) {
            this.path = path;
        }

        List<String> values() {
            Instant now = clock.instant();
            if (Duration.between(checked, now).compareTo(RECHECK) >= 0) {
                synchronized (this) {
                    reloadIfChanged();
                    checked = now;
                }
            }
            return values;
        }

        private void reloadIfChanged() {
            try {
                FileTime modified = Files.getLastModifiedTime(path);
                Object current = List.of(modified, Files.size(path));
                if (!Objects.equals(current, version)) {
                    values = Files.readAllLines(path, StandardCharsets.UTF_8).stream().map(String::strip)
                            .filter(line -> !line.isEmpty()).toList();
                    version = current;
                }
            } catch (IOException e) {
                if (values.isEmpty()) {
                    throw new IllegalArgumentException(path + " cannot be read: " + e.getMessage());
                }
            }
        }
    }
}
