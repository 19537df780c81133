package dev.metahook.server;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;

/**
 * How the server listens, read from environment variables. Every value has a default that suits a
 * container behind a ClusterIP Service; a value that cannot be read stops start-up with a message
 * naming the variable.
 *
 * @param host        bind address ({@code HOST}, default {@code 0.0.0.0})
 * @param port        port ({@code PORT}, default 8080; 0 picks a free one)
 * @param maxBodySize largest request body accepted ({@code MAX_BODY_SIZE}, default 16Mi)
 * @param idleTimeout keep-alive idle timeout ({@code IDLE_TIMEOUT_SECONDS}, default 120, above Go's 90 s)
 */
public record ServerConfig(String host, int port, long maxBodySize, Duration idleTimeout) {
    public static final long DEFAULT_MAX_BODY_SIZE = 16L * 1024 * 1024;

    public ServerConfig {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("PORT must be between 0 and 65535, got " + port);
        }
        if (maxBodySize < 1) {
            throw new IllegalArgumentException("MAX_BODY_SIZE must be positive, got " + maxBodySize);
        }
        if (idleTimeout.isNegative() || idleTimeout.isZero()) {
            throw new IllegalArgumentException("IDLE_TIMEOUT_SECONDS must be positive, got " + idleTimeout.getSeconds());
        }
    }

    public static ServerConfig defaults() {
        return new ServerConfig("0.0.0.0", 8080, DEFAULT_MAX_BODY_SIZE, Duration.ofSeconds(120));
    }

    public static ServerConfig fromEnvironment(Map<String, String> env) {
        ServerConfig defaults = defaults();
        return new ServerConfig(
                env.getOrDefault("HOST", defaults.host()),
                integer(env, "PORT", defaults.port()),
                size(env, "MAX_BODY_SIZE", defaults.maxBodySize()),
                Duration.ofSeconds(integer(env, "IDLE_TIMEOUT_SECONDS", (int) defaults.idleTimeout().getSeconds())));
    }

    public ServerConfig withPort(int port) {
        return new ServerConfig(host, port, maxBodySize, idleTimeout);
    }

    public ServerConfig withHost(String host) {
        return new ServerConfig(host, port, maxBodySize, idleTimeout);
    }

    public ServerConfig withMaxBodySize(long maxBodySize) {
        return new ServerConfig(host, port, maxBodySize, idleTimeout);
    }

    private static int integer(Map<String, String> env, String name, int fallback) {
        String text = env.get(name);
        if (text == null || text.isBlank()) {
            return fallback;
        }
        try {
            return Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
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
