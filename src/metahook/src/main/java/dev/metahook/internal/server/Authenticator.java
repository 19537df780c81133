package dev.metahook.internal.server;

import dev.metahook.internal.credentials.CredentialFiles;
import dev.metahook.internal.credentials.UnusableCredential;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks the credentials Metacontroller (v4.16+) sends: a bearer token or basic auth. The accepted
 * values live in files (mounted Secrets) and are read again when a file changes, so rotation needs
 * no restart; a file may hold several values, one per line, so old and new both work while
 * Metacontroller still holds the old one. A file is read again at most once a second (on a
 * monotonic clock, so a step of the wall clock changes nothing) and taken up when its content
 * changed, whatever its size and modification time say. Basic auth binds user names to passwords:
 * one user name goes with every password line, or line n of one file with line n of the other; the
 * user name is looked up, then the password compared with that user's. Values are compared as
 * SHA-256 digests in constant time. A file that is gone, unreadable, empty or does not pair up
 * refuses every call (fails closed) and logs an error; at start-up it stops the service.
 */
final class Authenticator {
    private static final Logger LOG = LoggerFactory.getLogger(Authenticator.class);
    private static final Duration RECHECK = Duration.ofSeconds(1);

    /** A digest no password has: what an unknown user's password is compared with, so the lookup costs the same. */
    private static final byte[] NO_PASSWORD = sha256("\0no such user\0");

    private final ServerConfig.Auth config;
    private final LongSupplier nanoTime;
    private final WatchedFile tokens;
    private final WatchedFile usernames;
    private final WatchedFile passwords;
    private volatile boolean unpairedLogged;
    private volatile Users users = new Users(List.of(), List.of(), null);

    /** Checks the files on the JVM's monotonic clock. */
    Authenticator(ServerConfig.Auth config) {
        this(config, System::nanoTime);
    }

    /** Checks the files on this monotonic clock ({@link System#nanoTime()} readings), so a test steps it without sleeping. */
    Authenticator(ServerConfig.Auth config, LongSupplier nanoTime) {
        this.config = config;
        this.nanoTime = nanoTime;
        this.tokens = config.bearerTokenFile() == null ? null : new WatchedFile(config.bearerTokenFile(), "AUTH_BEARER_TOKEN_FILE");
        this.usernames = config.basicUsernameFile() == null ? null : new WatchedFile(config.basicUsernameFile(), "AUTH_BASIC_USERNAME_FILE");
        this.passwords = config.basicPasswordFile() == null ? null : new WatchedFile(config.basicPasswordFile(), "AUTH_BASIC_PASSWORD_FILE");
        for (WatchedFile file : new WatchedFile[] {tokens, usernames, passwords}) {
            if (file != null && file.values().isEmpty()) {
                throw new IllegalArgumentException(file.setting + " " + file.path + ": " + file.problem);
            }
        }
        if (usernames != null && users().passwords == null) {
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
            return anyEquals(tokens.digests(), authorization.substring(7).trim());
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
        Users current = users();
        if (current.passwords == null) {
            if (!unpairedLogged) {
                LOG.error("refusing every hook call: {}", unpaired(current.userLines, current.passwordLines));
            }
            unpairedLogged = true;
            return false;
        }
        unpairedLogged = false;
        List<byte[]> accepted = current.passwords.get(decoded.substring(0, colon));
        byte[] password = sha256(decoded.substring(colon + 1));
        if (accepted == null) {
            MessageDigest.isEqual(password, NO_PASSWORD);
            return false;
        }
        boolean match = false;
        for (byte[] candidate : accepted) {
            match |= MessageDigest.isEqual(password, candidate);
        }
        return match;
    }

    /** The user names and passwords the files hold now, built again only when either file changed. */
    private Users users() {
        List<String> userLines = usernames.values();
        List<String> passwordLines = passwords.values();
        Users current = users;
        if (current.userLines != userLines || current.passwordLines != passwordLines) {
            current = new Users(userLines, passwordLines, byUser(userLines, passwordLines));
            users = current;
        }
        return current;
    }

    /** The accepted user names and password digests, as read from the two files. */
    private record Users(List<String> userLines, List<String> passwordLines, Map<String, List<byte[]>> passwords) {
    }

    /** Password digests by user name: one user name with every password, or line by line; null when the files do not pair up. */
    private static Map<String, List<byte[]>> byUser(List<String> users, List<String> passwords) {
        if (users.isEmpty() || passwords.isEmpty() || (users.size() != 1 && users.size() != passwords.size())) {
            return null;
        }
        Map<String, List<byte[]>> byUser = new HashMap<>();
        for (int i = 0; i < passwords.size(); i++) {
            byUser.computeIfAbsent(users.get(users.size() == 1 ? 0 : i), user -> new ArrayList<>()).add(sha256(passwords.get(i)));
        }
        return byUser;
    }

    private static String unpaired(List<String> users, List<String> passwords) {
        return "AUTH_BASIC_USERNAME_FILE has " + users.size() + " user names and AUTH_BASIC_PASSWORD_FILE " + passwords.size()
                + " passwords: give one user name for every password, or one user name per password, line by line";
    }

    /** Compares digests, so neither content nor length leaks through timing; checks every value. */
    private static boolean anyEquals(List<byte[]> accepted, String given) {
        byte[] digest = sha256(given);
        boolean match = false;
        for (byte[] value : accepted) {
            match |= MessageDigest.isEqual(digest, value);
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
     * A credentials file, read again at most once a second and taken up when its bytes changed. When
     * it cannot be read or holds nothing, its values are none (every call is refused) and an error is
     * logged, once per change of state; reading never throws.
     */
    private final class WatchedFile {
        private final Path path;
        private final String setting;
        private volatile List<String> values = List.of();
        private volatile List<byte[]> digests = List.of();
        private volatile boolean read;
        private volatile long checkedAt;
        private byte[] content;
        private volatile String problem;

        WatchedFile(Path path, String setting) {
            this.path = path;
            this.setting = setting;
        }

        List<String> values() {
            long now = nanoTime.getAsLong();
            if (!read || now - checkedAt >= RECHECK.toNanos()) {
                synchronized (this) {
                    if (!read || now - checkedAt >= RECHECK.toNanos()) {
                        reloadIfChanged();
                        checkedAt = now;
                        read = true;
                    }
                }
            }
            return values;
        }

        List<byte[]> digests() {
            values();
            return digests;
        }

        private void reloadIfChanged() {
            byte[] bytes;
            try {
                bytes = CredentialFiles.read(setting, path);
            } catch (UnusableCredential e) {
                fail(e.why());
                return;
            }
            if (Arrays.equals(bytes, content)) {
                return;
            }
            content = bytes;
            values = CredentialFiles.lines(bytes);
            digests = values.stream().map(Authenticator::sha256).toList();
            if (problem != null) {
                LOG.info("{} {} holds credentials again", setting, path);
            }
            problem = null;
        }

        /** No values: every call is refused until the file is right again. */
        private void fail(String why) {
            values = List.of();
            digests = List.of();
            if (!why.equals(problem) && read) {
                LOG.error("{} {}: {}: refusing every hook call until it holds credentials again", setting, path, why);
            }
            problem = why;
            content = null;
        }
    }
}
