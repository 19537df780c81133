package dev.metahook.internal.server;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;

/**
 * How the server listens, read from environment variables. Every value has a default that suits a
 * container behind a ClusterIP Service; a value that cannot be read stops start-up with a message
 * naming the variable (and, for a port that holds a Kubernetes service link, the Service that set it).
 *
 * @param host            bind address ({@code HOST}, default {@code 0.0.0.0})
 * @param port            port ({@code PORT}, default 8080; 0 picks a free one)
 * @param maxBodySize     largest request body accepted ({@code MAX_BODY_SIZE}, default 16Mi)
 * @param idleTimeout     keep-alive idle timeout ({@code IDLE_TIMEOUT_SECONDS}, default 120, above Go's 90 s)
 * @param shutdownTimeout how long in-flight calls may finish after SIGTERM ({@code SHUTDOWN_TIMEOUT_SECONDS}, default 20)
 * @param auth            credentials hook calls must carry; none by default
 * @param tls             certificate and key to serve HTTPS with, and the CA client certificates must chain to
 * @param managementPort  plain-HTTP port for health and metrics only ({@code MANAGEMENT_PORT}; -1, the default, for none;
 *                        0 picks a free one)
 * @param shutdownIdle    during shutdown, how long a kept-alive connection may stay quiet, waiting for the request its
 *                        client may still send on it, before it is closed ({@code SHUTDOWN_IDLE_SECONDS}, default 5;
 *                        0 closes quiet connections at once, as tests that keep idle connections want)
 * @param acceptQueueSize connections the kernel holds for the listener before they are accepted ({@code ACCEPT_QUEUE_SIZE},
 *                        default 1024; the kernel caps it at {@code net.core.somaxconn})
 */
public record ServerConfig(String host, int port, long maxBodySize, Duration idleTimeout, Duration shutdownTimeout,
                           Auth auth, Tls tls, int managementPort, Duration shutdownIdle, int acceptQueueSize) {
    /** No management port. */
    public static final int NO_MANAGEMENT_PORT = -1;
    public static final long DEFAULT_MAX_BODY_SIZE = 16L * 1024 * 1024;
    public static final Duration DEFAULT_SHUTDOWN_IDLE = Duration.ofSeconds(5);
    public static final int DEFAULT_ACCEPT_QUEUE_SIZE = 1024;
    /** The largest MAX_BODY_SIZE: a body is held in one Java array, and a hook request near this size is far beyond any real one. */
    public static final long MAX_MAX_BODY_SIZE = 1L << 30;

    /** Files holding accepted credentials: bearer tokens (one per line), or a basic-auth user name and passwords. */
    public record Auth(Path bearerTokenFile, Path basicUsernameFile, Path basicPasswordFile) {
        public static final Auth NONE = new Auth(null, null, null);

        public boolean enabled() {
            return bearerTokenFile != null || basicUsernameFile != null;
        }
    }

    /**
     * PEM files: the server's certificate chain and key, and optionally the CA bundle client certificates must chain
     * to; and how many days before the certificate expires a warning says so ({@code TLS_EXPIRY_WARNING_DAYS}, default
     * 7; 0 for none before it has expired).
     */
    public record Tls(Path certFile, Path keyFile, Path clientCaFile, int expiryWarningDays) {
        public static final int DEFAULT_EXPIRY_WARNING_DAYS = 7;
        public static final Tls NONE = new Tls(null, null, null);

        public Tls {
            if (expiryWarningDays < 0 || expiryWarningDays > 3650) {
                throw new IllegalArgumentException("TLS_EXPIRY_WARNING_DAYS must be between 0 and 3650, got " + expiryWarningDays);
            }
        }

        /** With the default expiry warning. */
        public Tls(Path certFile, Path keyFile, Path clientCaFile) {
            this(certFile, keyFile, clientCaFile, DEFAULT_EXPIRY_WARNING_DAYS);
        }

        public boolean enabled() {
            return certFile != null;
        }
    }

    /** Without a management port: health and metrics on the hook port only. */
    public ServerConfig(String host, int port, long maxBodySize, Duration idleTimeout, Duration shutdownTimeout, Auth auth, Tls tls) {
        this(host, port, maxBodySize, idleTimeout, shutdownTimeout, auth, tls, NO_MANAGEMENT_PORT);
    }

    /** With the default shutdown idle time and accept queue. */
    public ServerConfig(String host, int port, long maxBodySize, Duration idleTimeout, Duration shutdownTimeout, Auth auth, Tls tls,
                        int managementPort) {
        this(host, port, maxBodySize, idleTimeout, shutdownTimeout, auth, tls, managementPort, DEFAULT_SHUTDOWN_IDLE,
                DEFAULT_ACCEPT_QUEUE_SIZE);
    }

    public ServerConfig {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("PORT must be between 0 and 65535, got " + port);
        }
        if (managementPort < NO_MANAGEMENT_PORT || managementPort > 65535) {
            throw new IllegalArgumentException("MANAGEMENT_PORT must be between 0 and 65535, got " + managementPort);
        }
        if (managementPort > 0 && managementPort == port) {
            throw new IllegalArgumentException("MANAGEMENT_PORT must differ from PORT, both are " + port);
        }
        if (maxBodySize < 1 || maxBodySize > MAX_MAX_BODY_SIZE) {
            throw new IllegalArgumentException("MAX_BODY_SIZE must be between 1 and 1Gi (" + MAX_MAX_BODY_SIZE + " bytes), got " + maxBodySize);
        }
        if (idleTimeout.isNegative() || idleTimeout.isZero()) {
            throw new IllegalArgumentException("IDLE_TIMEOUT_SECONDS must be positive, got " + idleTimeout.getSeconds());
        }
        if (shutdownTimeout.isNegative()) {
            throw new IllegalArgumentException("SHUTDOWN_TIMEOUT_SECONDS must not be negative, got " + shutdownTimeout.getSeconds());
        }
        if (shutdownIdle.isNegative()) {
            throw new IllegalArgumentException("SHUTDOWN_IDLE_SECONDS must not be negative, got " + shutdownIdle.getSeconds());
        }
        if (acceptQueueSize < 1 || acceptQueueSize > 65535) {
            throw new IllegalArgumentException("ACCEPT_QUEUE_SIZE must be between 1 and 65535, got " + acceptQueueSize);
        }
        if ((auth.basicUsernameFile() == null) != (auth.basicPasswordFile() == null)) {
            throw new IllegalArgumentException("AUTH_BASIC_USERNAME_FILE and AUTH_BASIC_PASSWORD_FILE go together");
        }
        if ((tls.certFile() == null) != (tls.keyFile() == null)) {
            throw new IllegalArgumentException("TLS_CERT_FILE and TLS_KEY_FILE go together");
        }
        if (tls.clientCaFile() != null && tls.certFile() == null) {
            throw new IllegalArgumentException("TLS_CLIENT_CA_FILE needs TLS_CERT_FILE and TLS_KEY_FILE");
        }
    }

    public static ServerConfig defaults() {
        return new ServerConfig("0.0.0.0", 8080, DEFAULT_MAX_BODY_SIZE, Duration.ofSeconds(120), Duration.ofSeconds(20),
                Auth.NONE, Tls.NONE);
    }

    public static ServerConfig fromEnvironment(Map<String, String> env) {
        ServerConfig defaults = defaults();
        return new ServerConfig(
                env.getOrDefault("HOST", defaults.host()),
                integer(env, "PORT", defaults.port()),
                size(env, "MAX_BODY_SIZE", defaults.maxBodySize()),
                Duration.ofSeconds(integer(env, "IDLE_TIMEOUT_SECONDS", (int) defaults.idleTimeout().getSeconds())),
                Duration.ofSeconds(integer(env, "SHUTDOWN_TIMEOUT_SECONDS", (int) defaults.shutdownTimeout().getSeconds())),
                new Auth(path(env, "AUTH_BEARER_TOKEN_FILE"), path(env, "AUTH_BASIC_USERNAME_FILE"), path(env, "AUTH_BASIC_PASSWORD_FILE")),
                new Tls(path(env, "TLS_CERT_FILE"), path(env, "TLS_KEY_FILE"), path(env, "TLS_CLIENT_CA_FILE"),
                        integer(env, "TLS_EXPIRY_WARNING_DAYS", Tls.DEFAULT_EXPIRY_WARNING_DAYS)),
                integer(env, "MANAGEMENT_PORT", NO_MANAGEMENT_PORT),
                Duration.ofSeconds(integer(env, "SHUTDOWN_IDLE_SECONDS", (int) defaults.shutdownIdle().getSeconds())),
                integer(env, "ACCEPT_QUEUE_SIZE", defaults.acceptQueueSize()));
    }

    public ServerConfig withPort(int port) {
        return new ServerConfig(host, port, maxBodySize, idleTimeout, shutdownTimeout, auth, tls, managementPort, shutdownIdle, acceptQueueSize);
    }

    public ServerConfig withHost(String host) {
        return new ServerConfig(host, port, maxBodySize, idleTimeout, shutdownTimeout, auth, tls, managementPort, shutdownIdle, acceptQueueSize);
    }

    public ServerConfig withMaxBodySize(long maxBodySize) {
        return new ServerConfig(host, port, maxBodySize, idleTimeout, shutdownTimeout, auth, tls, managementPort, shutdownIdle, acceptQueueSize);
    }

    public ServerConfig withAuth(Auth auth) {
        return new ServerConfig(host, port, maxBodySize, idleTimeout, shutdownTimeout, auth, tls, managementPort, shutdownIdle, acceptQueueSize);
    }

    public ServerConfig withIdleTimeout(Duration idleTimeout) {
        return new ServerConfig(host, port, maxBodySize, idleTimeout, shutdownTimeout, auth, tls, managementPort, shutdownIdle, acceptQueueSize);
    }

    public ServerConfig withManagementPort(int managementPort) {
        return new ServerConfig(host, port, maxBodySize, idleTimeout, shutdownTimeout, auth, tls, managementPort, shutdownIdle, acceptQueueSize);
    }

    public ServerConfig withTls(Tls tls) {
        return new ServerConfig(host, port, maxBodySize, idleTimeout, shutdownTimeout, auth, tls, managementPort, shutdownIdle, acceptQueueSize);
    }

    public ServerConfig withShutdownTimeout(Duration shutdownTimeout) {
        return new ServerConfig(host, port, maxBodySize, idleTimeout, shutdownTimeout, auth, tls, managementPort, shutdownIdle, acceptQueueSize);
    }

    public ServerConfig withShutdownIdle(Duration shutdownIdle) {
        return new ServerConfig(host, port, maxBodySize, idleTimeout, shutdownTimeout, auth, tls, managementPort, shutdownIdle, acceptQueueSize);
    }

    public ServerConfig withAcceptQueueSize(int acceptQueueSize) {
        return new ServerConfig(host, port, maxBodySize, idleTimeout, shutdownTimeout, auth, tls, managementPort, shutdownIdle, acceptQueueSize);
    }

    private static Path path(Map<String, String> env, String name) {
        String text = env.get(name);
        return text == null || text.isBlank() ? null : Path.of(text.trim());
    }

    private static int integer(Map<String, String> env, String name, int fallback) {
        String text = env.get(name);
        if (text == null || text.isBlank()) {
            return fallback;
        }
        try {
            return Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            if (ServiceLinkException.isLink(name, text)) {
                throw new ServiceLinkException(name, text);
            }
            throw new IllegalArgumentException(name + " must be a whole number, got '" + text + "'");
        }
    }

    /** Bytes, or a number with a binary suffix: {@code 16Mi}, {@code 512Ki}, {@code 1Gi}. */
    private static long size(Map<String, String> env, String name, long fallback) {
        String text = env.get(name);
        if (text == null || text.isBlank()) {
            return fallback;
        }
        String trimmed = text.trim().toLowerCase(Locale.ROOT);
        long unit = 1;
        for (var suffix : Map.of("ki", 1L << 10, "mi", 1L << 20, "gi", 1L << 30).entrySet()) {
            if (trimmed.endsWith(suffix.getKey())) {
                unit = suffix.getValue();
                trimmed = trimmed.substring(0, trimmed.length() - 2);
            }
        }
        try {
            return Math.multiplyExact(Long.parseLong(trimmed), unit);
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException(name + " must be a size in bytes, such as 16777216 or 16Mi, got '" + text + "'");
        }
    }
}
