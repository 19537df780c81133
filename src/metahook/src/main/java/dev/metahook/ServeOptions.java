package dev.metahook;

import dev.metahook.internal.server.ServerConfig;
import dev.metahook.internal.server.WarmUp;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * How {@link Metahook#serve(dev.metahook.api.Controllers, ServeOptions)} serves: where it listens, the
 * credentials and TLS files hook calls must match, limits, the clock conditions are stamped with, and
 * warm-up calls made before the service reports ready. Start from the environment (the variables of
 * docs/configuration.md) and change what the code decides:
 *
 * <pre>{@code
 * Metahook.serve(controllers, ServeOptions.fromEnvironment().port(9090).warmUp("greeting", "sync", body).build());
 * }</pre>
 */
public final class ServeOptions {
    private final ServerConfig config;
    private final Clock clock;
    private final WarmUp warmUp;
    private final MeterRegistry meterRegistry;

    private ServeOptions(ServerConfig config, Clock clock, WarmUp warmUp, MeterRegistry meterRegistry) {
        this.config = config;
        this.clock = clock;
        this.warmUp = warmUp;
        this.meterRegistry = meterRegistry;
    }

    /**
     * The options the environment gives (docs/configuration.md).
     *
     * @throws IllegalArgumentException when a variable cannot be read, naming it
     */
    public static Builder fromEnvironment() {
        return fromEnvironment(System.getenv());
    }

    /**
     * The options these variables give, as {@link #fromEnvironment()} reads the process's.
     *
     * @throws IllegalArgumentException when a variable cannot be read, naming it
     */
    public static Builder fromEnvironment(Map<String, String> environment) {
        return new Builder(ServerConfig.fromEnvironment(environment));
    }

    /** The defaults, whatever the environment says: port 8080 on every interface, no credentials, no TLS. */
    public static Builder defaults() {
        return new Builder(ServerConfig.defaults());
    }

    ServerConfig config() {
        return config;
    }

    Clock clock() {
        return clock;
    }

    WarmUp warmUp() {
        return warmUp;
    }

    /** The user's own registry, or null. */
    MeterRegistry meterRegistry() {
        return meterRegistry;
    }

    /** Options under construction; {@link #build()} checks them together. */
    public static final class Builder {
        private ServerConfig config;
        private Clock clock = Clock.systemUTC();
        private final List<WarmUp.Call> warmUpCalls = new ArrayList<>();
        private Duration warmUpBudget = WarmUp.DEFAULT_BUDGET;
        private MeterRegistry meterRegistry;

        private Builder(ServerConfig config) {
            this.config = config;
        }

        /** The address to listen on ({@code HOST}); {@code 127.0.0.1} for this machine only. */
        public Builder host(String host) {
            config = config.withHost(Objects.requireNonNull(host, "host"));
            return this;
        }

        /** The port of the hooks ({@code PORT}); 0 picks a free one, which {@link Server#port()} tells. */
        public Builder port(int port) {
            config = config.withPort(port);
            return this;
        }

        /** A plain-HTTP port for health and metrics only ({@code MANAGEMENT_PORT}); 0 picks a free one. */
        public Builder managementPort(int port) {
            config = config.withManagementPort(port);
            return this;
        }

        /** The largest request body accepted, in bytes ({@code MAX_BODY_SIZE}). */
        public Builder maxBodySize(long bytes) {
            config = config.withMaxBodySize(bytes);
            return this;
        }

        /** How long a kept-alive connection may stay quiet ({@code IDLE_TIMEOUT_SECONDS}). */
        public Builder idleTimeout(Duration timeout) {
            config = config.withIdleTimeout(timeout);
            return this;
        }

        /** How long calls in flight may finish after SIGTERM ({@code SHUTDOWN_TIMEOUT_SECONDS}). */
        public Builder shutdownTimeout(Duration timeout) {
            config = config.withShutdownTimeout(timeout);
            return this;
        }

        /** Hook calls must carry a bearer token that is a line of this file ({@code AUTH_BEARER_TOKEN_FILE}); re-read when it changes. */
        public Builder bearerTokenFile(Path file) {
            config = config.withAuth(new ServerConfig.Auth(file, null, null));
            return this;
        }

        /** Hook calls must carry basic credentials matching these files ({@code AUTH_BASIC_USERNAME_FILE}, {@code AUTH_BASIC_PASSWORD_FILE}). */
        public Builder basicAuthFiles(Path usernameFile, Path passwordFile) {
            config = config.withAuth(new ServerConfig.Auth(null, usernameFile, passwordFile));
            return this;
        }

        /** Serve HTTPS with this PEM certificate chain and key ({@code TLS_CERT_FILE}, {@code TLS_KEY_FILE}). */
        public Builder tls(Path certificateFile, Path keyFile) {
            config = config.withTls(new ServerConfig.Tls(certificateFile, keyFile, config.tls().clientCaFile(), config.tls().expiryWarningDays()));
            return this;
        }

        /** Require client certificates that chain to this PEM CA bundle ({@code TLS_CLIENT_CA_FILE}); needs {@link #tls}. */
        public Builder clientCaFile(Path caFile) {
            config = config.withTls(new ServerConfig.Tls(config.tls().certFile(), config.tls().keyFile(), caFile, config.tls().expiryWarningDays()));
            return this;
        }

        /** The clock conditions' {@code lastTransitionTime} comes from (the system's UTC clock unless a test fixes it). */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * A call made a few times before the service reports ready ({@code POST /<controller>/<hook>} with this body,
         * expected to answer 200), so that Metacontroller's first call does not pay for a cold JVM.
         */
        public Builder warmUp(String controller, String hook, byte[] body) {
            warmUpCalls.add(new WarmUp.Call(controller, hook, body.clone()));
            return this;
        }

        /**
         * A registry of the service's own (OTLP, Datadog, a shared one) that also receives every meter: the
         * hook metrics, the JVM's, {@code metahook_build_info} and those a controller adds on
         * {@link Server#meterRegistry()}. {@code /metrics} keeps serving metahook's Prometheus registry
         * whatever this one is. It receives the meters from the moment {@code serve} returns (the warm-up
         * calls are not counted in it).
         */
        public Builder meterRegistry(MeterRegistry registry) {
            this.meterRegistry = Objects.requireNonNull(registry, "registry");
            return this;
        }

        /** How long readiness waits for the warm-up calls at most (half a second unless set). */
        public Builder warmUpBudget(Duration budget) {
            this.warmUpBudget = Objects.requireNonNull(budget, "budget");
            return this;
        }

        /**
         * The options.
         *
         * @throws IllegalArgumentException when they do not go together (a TLS key without a certificate, say), naming the option
         */
        public ServeOptions build() {
            ServerConfig checked = new ServerConfig(config.host(), config.port(), config.maxBodySize(), config.idleTimeout(),
                    config.shutdownTimeout(), config.auth(), config.tls(), config.managementPort(), config.shutdownIdle(),
                    config.acceptQueueSize());
            return new ServeOptions(checked, clock, WarmUp.of(warmUpCalls).within(warmUpBudget), meterRegistry);
        }
    }
}
