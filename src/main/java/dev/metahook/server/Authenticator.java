package dev.metahook.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks the credentials Metacontroller (v4.16+) sends: a bearer token or basic auth. The accepted
 * values live in files (mounted Secrets) and are read again when a file changes, so rotation needs
 * no restart; a file may hold several values, one per line, so old and new both work while
 * Metacontroller still holds the old one. Basic auth binds user names to passwords: one user name
 * goes with every password line, or line n of one file with line n of the other. Values are compared
 * in constant time. A file that is gone, unreadable, empty or does not pair up refuses every call
 * (fails closed) and logs an error; at start-up it stops the service.
 */
final class Authenticator {
    private static final Logger LOG = LoggerFactory.getLogger(Authenticator.class);
    private static final Duration RECHECK = Duration.ofSeconds(1);

    private final ServerConfig.Auth config;
    private final Clock clock;
    private final WatchedFile tokens;
    private final WatchedFile usernames;
    private final WatchedFile passwords;
    private volatile boolean unpairedLogged;

    Authenticator(ServerConfig.Auth config, Clock clock) {
        this.config = config;
        this.clock = clock;
        this.tokens = config.bearerTokenFile() == null ? null : new WatchedFile(config.bearerTokenFile(), "AUTH_BEARER_TOKEN_FILE");
        this.usernames = config.basicUsernameFile() == null ? null : new WatchedFile(config.basicUsernameFile(), "AUTH_BASIC_USERNAME_FILE");
        this.passwords = config.basicPasswordFile() == null ? null : new WatchedFile(config.basicPasswordFile(), "AUTH_BASIC_PASSWORD_FILE");
        for (WatchedFile file : new WatchedFile[] {tokens, usernames, passwords}) {
            if (file != null && file.values().isEmpty()) {
                throw new IllegalArgumentException(file.setting + " (" + file.path + "): " + file.problem);
            }
        }
        if (usernames != null && pairs(usernames.values(), passwords.values()) == null) {
            throw new IllegalArgumentException(unpaired(usernames.values(), passwords.values()));
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
        List<String[]> pairs = pairs(usernames.values(), passwords.values());
        if (pairs == null) {
            if (!unpairedLogged) {
                LOG.error("refusing every hook call: {}", unpaired(usernames.values(), passwords.values()));
            }
            unpairedLogged = true;
            return false;
        }
        unpairedLogged = false;
        byte[] user = sha256(decoded.substring(0, colon));
        byte[] password = sha256(decoded.substring(colon + 1));
        boolean match = false;
        for (String[] pair : pairs) {
            match |= MessageDigest.isEqual(user, sha256(pair[0])) & MessageDigest.isEqual(password, sha256(pair[1]));
        }
        return match;
    }

    /** User name and password pairs: one user name with every password, or line by line; null when the files do not pair up. */
    private static List<String[]> pairs(List<String> users, List<String> passwords) {
        if (users.isEmpty() || passwords.isEmpty() || (users.size() != 1 && users.size() != passwords.size())) {
            return null;
        }
        List<String[]> pairs = new ArrayList<>(passwords.size());
        for (int i = 0; i < passwords.size(); i++) {
            pairs.add(new String[] {users.get(users.size() == 1 ? 0 : i), passwords.get(i)});
        }
        return pairs;
    }

    private static String unpaired(List<String> users, List<String> passwords) {
        return "AUTH_BASIC_USERNAME_FILE has " + users.size() + " user names and AUTH_BASIC_PASSWORD_FILE " + passwords.size()
                + " passwords: give one user name for every password, or one user name per password, line by line";
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

    /**
     * A credentials file, read again when its modification time or size changed, looked at at most
     * once a second. When it cannot be read or holds nothing, its values are none (every call is
     * refused) and an error is logged, once per change of state; reading never throws.
     */
    private final class WatchedFile {
        private final Path path;
        private final String setting;
        private volatile List<String> values = List.of();
        private volatile Instant checked = Instant.MIN;
        private volatile Object version;
        private volatile String problem;

        WatchedFile(Path path, String setting) {
            this.path = path;
            this.setting = setting;
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
            Object current;
            List<String> read;
            try {
                current = List.of(Files.getLastModifiedTime(path), Files.size(path));
                if (current.equals(version)) {
                    return;
                }
                read = Files.readAllLines(path, StandardCharsets.UTF_8).stream().map(String::strip).filter(line -> !line.isEmpty()).toList();
            } catch (IOException | UncheckedIOException e) {
                fail("cannot be read (" + e.getClass().getSimpleName() + ": " + e.getMessage() + ")");
                return;
            }
            version = current;
            if (read.isEmpty()) {
                fail("holds no credentials");
                return;
            }
            values = read;
            if (problem != null) {
                LOG.info("{} ({}) holds credentials again", setting, path);
            }
            problem = null;
        }

        /** No values: every call is refused until the file is right again. */
        private void fail(String why) {
            values = List.of();
            version = null;
            if (!why.equals(problem) && checked != Instant.MIN) {
                LOG.error("{} ({}) {}: refusing every hook call until it holds credentials again", setting, path, why);
            }
            problem = why;
        }
    }
}
