package dev.metahook.spring;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The hook server's settings under {@code metahook.*}: each is the environment variable of the plain service
 * (docs/configuration.md) of the same name, lower case and with dashes ({@code MAX_BODY_SIZE} is
 * {@code metahook.max-body-size}), read and checked by the same code. Unset, a setting takes the plain service's
 * default. Logging and tracing are Boot's ({@code logging.*}, {@code management.tracing.*}).
 */
@ConfigurationProperties(prefix = "metahook")
public class MetahookProperties {
    /** The variables the properties stand for, in the order {@link #asEnvironment()} gives them. */
    static final List<String> VARIABLES = List.of("HOST", "PORT", "MANAGEMENT_PORT", "MAX_BODY_SIZE",
            "IDLE_TIMEOUT_SECONDS", "SHUTDOWN_TIMEOUT_SECONDS", "SHUTDOWN_IDLE_SECONDS", "ACCEPT_QUEUE_SIZE",
            "AUTH_BEARER_TOKEN_FILE", "AUTH_BASIC_USERNAME_FILE", "AUTH_BASIC_PASSWORD_FILE", "TLS_CERT_FILE",
            "TLS_KEY_FILE", "TLS_CLIENT_CA_FILE", "TLS_EXPIRY_WARNING_DAYS");

    /** Address the hooks are served on (HOST); 0.0.0.0 unless set. */
    private String host;
    /** Port the hooks are served on (PORT); 8080 unless set, 0 picks a free one. Not Boot's server.port. */
    private Integer port;
    /** Plain-HTTP port serving only /healthz, /readyz and /metrics (MANAGEMENT_PORT); none unless set. */
    private Integer managementPort;
    /** Largest request body, in bytes or with Ki, Mi, Gi (MAX_BODY_SIZE); 16Mi unless set, at most 1Gi. */
    private String maxBodySize;
    /** Keep-alive idle timeout in seconds (IDLE_TIMEOUT_SECONDS); 120 unless set. */
    private Integer idleTimeoutSeconds;
    /** At shutdown, how long calls in flight may finish, in seconds (SHUTDOWN_TIMEOUT_SECONDS); 20 unless set. */
    private Integer shutdownTimeoutSeconds;
    /** At shutdown, how long a kept-alive connection may stay quiet, in seconds (SHUTDOWN_IDLE_SECONDS); 5 unless set. */
    private Integer shutdownIdleSeconds;
    /** Connections the kernel queues for the listener (ACCEPT_QUEUE_SIZE); 1024 unless set. */
    private Integer acceptQueueSize;
    /** File of accepted bearer tokens, one per line (AUTH_BEARER_TOKEN_FILE); re-read when it changes. */
    private String authBearerTokenFile;
    /** File of accepted basic-auth user names (AUTH_BASIC_USERNAME_FILE). */
    private String authBasicUsernameFile;
    /** File of accepted basic-auth passwords (AUTH_BASIC_PASSWORD_FILE). */
    private String authBasicPasswordFile;
    /** PEM certificate chain: serve HTTPS (TLS_CERT_FILE); re-read when renewed. */
    private String tlsCertFile;
    /** PEM key of the certificate (TLS_KEY_FILE). */
    private String tlsKeyFile;
    /** PEM CA bundle: require client certificates it signed (TLS_CLIENT_CA_FILE). */
    private String tlsClientCaFile;
    /** How many days before the served chain expires (its first certificate to expire that a client verifies) a warning says so, at start and daily (TLS_EXPIRY_WARNING_DAYS); 7 unless set, 0 for none. */
    private Integer tlsExpiryWarningDays;

    /**
     * The settings as the plain service's environment variables: each property set, else the process's variable of
     * that name (so the Deployment the manifests goal writes, which sets {@code PORT}, {@code MANAGEMENT_PORT}, the
     * credential files, serves a Boot application as it serves the plain service), else left out.
     */
    Map<String, String> asEnvironment(Map<String, String> process) {
        Map<String, String> variables = new LinkedHashMap<>();
        variables.putAll(asEnvironment());
        for (String name : VARIABLES) {
            String value = process.get(name);
            if (!variables.containsKey(name) && value != null) {
                variables.put(name, value);
            }
        }
        return variables;
    }

    /** The properties set, as the plain service's environment variables, the unset ones left out. */
    Map<String, String> asEnvironment() {
        Map<String, String> variables = new LinkedHashMap<>();
        put(variables, "HOST", host);
        put(variables, "PORT", port);
        put(variables, "MANAGEMENT_PORT", managementPort);
        put(variables, "MAX_BODY_SIZE", maxBodySize);
        put(variables, "IDLE_TIMEOUT_SECONDS", idleTimeoutSeconds);
        put(variables, "SHUTDOWN_TIMEOUT_SECONDS", shutdownTimeoutSeconds);
        put(variables, "SHUTDOWN_IDLE_SECONDS", shutdownIdleSeconds);
        put(variables, "ACCEPT_QUEUE_SIZE", acceptQueueSize);
        put(variables, "AUTH_BEARER_TOKEN_FILE", authBearerTokenFile);
        put(variables, "AUTH_BASIC_USERNAME_FILE", authBasicUsernameFile);
        put(variables, "AUTH_BASIC_PASSWORD_FILE", authBasicPasswordFile);
        put(variables, "TLS_CERT_FILE", tlsCertFile);
        put(variables, "TLS_KEY_FILE", tlsKeyFile);
        put(variables, "TLS_CLIENT_CA_FILE", tlsClientCaFile);
        put(variables, "TLS_EXPIRY_WARNING_DAYS", tlsExpiryWarningDays);
        return variables;
    }

    /** The property a variable is read from: {@code MAX_BODY_SIZE} is {@code metahook.max-body-size}. */
    static String property(String variable) {
        return "metahook." + variable.toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }

    private static void put(Map<String, String> variables, String name, Object value) {
        if (value != null) {
            variables.put(name, value.toString());
        }
    }

    public String getHost() {
        return host;
    }

    public void setHost(String host) {
        this.host = host;
    }

    public Integer getPort() {
        return port;
    }

    public void setPort(Integer port) {
        this.port = port;
    }

    public Integer getManagementPort() {
        return managementPort;
    }

    public void setManagementPort(Integer managementPort) {
        this.managementPort = managementPort;
    }

    public String getMaxBodySize() {
        return maxBodySize;
    }

    public void setMaxBodySize(String maxBodySize) {
        this.maxBodySize = maxBodySize;
    }

    public Integer getIdleTimeoutSeconds() {
        return idleTimeoutSeconds;
    }

    public void setIdleTimeoutSeconds(Integer idleTimeoutSeconds) {
        this.idleTimeoutSeconds = idleTimeoutSeconds;
    }

    public Integer getShutdownTimeoutSeconds() {
        return shutdownTimeoutSeconds;
    }

    public void setShutdownTimeoutSeconds(Integer shutdownTimeoutSeconds) {
        this.shutdownTimeoutSeconds = shutdownTimeoutSeconds;
    }

    public Integer getShutdownIdleSeconds() {
        return shutdownIdleSeconds;
    }

    public void setShutdownIdleSeconds(Integer shutdownIdleSeconds) {
        this.shutdownIdleSeconds = shutdownIdleSeconds;
    }

    public Integer getAcceptQueueSize() {
        return acceptQueueSize;
    }

    public void setAcceptQueueSize(Integer acceptQueueSize) {
        this.acceptQueueSize = acceptQueueSize;
    }

    public String getAuthBearerTokenFile() {
        return authBearerTokenFile;
    }

    public void setAuthBearerTokenFile(String authBearerTokenFile) {
        this.authBearerTokenFile = authBearerTokenFile;
    }

    public String getAuthBasicUsernameFile() {
        return authBasicUsernameFile;
    }

    public void setAuthBasicUsernameFile(String authBasicUsernameFile) {
        this.authBasicUsernameFile = authBasicUsernameFile;
    }

    public String getAuthBasicPasswordFile() {
        return authBasicPasswordFile;
    }

    public void setAuthBasicPasswordFile(String authBasicPasswordFile) {
        this.authBasicPasswordFile = authBasicPasswordFile;
    }

    public String getTlsCertFile() {
        return tlsCertFile;
    }

    public void setTlsCertFile(String tlsCertFile) {
        this.tlsCertFile = tlsCertFile;
    }

    public String getTlsKeyFile() {
        return tlsKeyFile;
    }

    public void setTlsKeyFile(String tlsKeyFile) {
        this.tlsKeyFile = tlsKeyFile;
    }

    public String getTlsClientCaFile() {
        return tlsClientCaFile;
    }

    public void setTlsClientCaFile(String tlsClientCaFile) {
        this.tlsClientCaFile = tlsClientCaFile;
    }

    public Integer getTlsExpiryWarningDays() {
        return tlsExpiryWarningDays;
    }

    public void setTlsExpiryWarningDays(Integer tlsExpiryWarningDays) {
        this.tlsExpiryWarningDays = tlsExpiryWarningDays;
    }
}
