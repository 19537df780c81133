package dev.metahook.internal.server;

import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdk;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.autoconfigure.spi.ConfigurationException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/**
 * The OpenTelemetry SDK as autoconfigure makes it from the {@code OTEL_*} variables and {@code otel.*}
 * system properties, with metahook's defaults under them. Loaded only when autoconfigure is on the class
 * path (metahook depends on it optionally; {@link Tracing} looks first).
 */
final class SdkTracing {
    /** How long the last spans may take to leave at shutdown. */
    private static final long FLUSH_SECONDS = 5;
    /**
     * The java.util.logging logger the SDK logs under (held here: the JUL log manager keeps loggers weakly, and
     * one collected would lose its handler).
     */
    private static final java.util.logging.Logger SDK_LOG = java.util.logging.Logger.getLogger("io.opentelemetry");

    private SdkTracing() {
    }

    static Tracing start(UnaryOperator<String> settings) {
        logToSlf4j();
        AutoConfiguredOpenTelemetrySdk configured;
        try {
            configured = AutoConfiguredOpenTelemetrySdk.builder()
                    .addPropertiesSupplier(() -> defaults(settings))
                    .disableShutdownHook()
                    .setResultAsGlobal()
                    .build();
        } catch (ConfigurationException e) {
            throw new IllegalArgumentException("OpenTelemetry (OTEL_* variables): " + e.getMessage()
                    + (e.getCause() == null ? "" : ": " + e.getCause()), e);
        }
        OpenTelemetrySdk sdk = configured.getOpenTelemetrySdk();
        return new Tracing(sdk, true, () -> {
            CompletableResultCode done = sdk.shutdown().join(FLUSH_SECONDS, TimeUnit.SECONDS);
            if (!done.isSuccess()) {
                throw new IllegalStateException("the exporter did not take the last spans within " + FLUSH_SECONDS + " s");
            }
        });
    }

    /**
     * Sends what the SDK logs (through java.util.logging, which would write two lines of its own format to
     * stderr: an exporter that cannot reach its collector, a bad setting) to SLF4J, so that it is one line in the
     * service's log format, {@code LOG_FORMAT=json} included; warnings and errors only (its informational lines
     * repeat what metahook says itself, such as a setting it could not use).
     */
    static void logToSlf4j() {
        synchronized (SDK_LOG) {
            if (SDK_LOG.getUseParentHandlers()) {
                SDK_LOG.addHandler(new SdkLog());
                SDK_LOG.setUseParentHandlers(false);
                SDK_LOG.setLevel(java.util.logging.Level.WARNING);
            }
        }
    }

    /**
     * What applies when the settings do not say: traces only (the service's metrics are Prometheus's on
     * {@code /metrics}, its logs on stdout), the W3C trace context the spans use and no other propagator
     * ({@code baggage} only when {@code OTEL_PROPAGATORS} names it: nothing reads it, and each bad member of
     * it costs a warning), OTLP over HTTP ({@code http/protobuf}, the protocol the
     * specification makes the default, where the Java SDK's own default is gRPC, which needs a sender the
     * service does not carry), as service {@code metahook} unless {@code otel.service.name} or {@code
     * service.name} in {@code otel.resource.attributes} names it.
     */
    static Map<String, String> defaults(UnaryOperator<String> settings) {
        Map<String, String> defaults = new HashMap<>();
        defaults.put("otel.exporter.otlp.protocol", "http/protobuf");
        defaults.put("otel.metrics.exporter", "none");
        defaults.put("otel.logs.exporter", "none");
        defaults.put("otel.propagators", "tracecontext");
        String resource = settings.apply("otel.resource.attributes");
        if (settings.apply("otel.service.name") == null && (resource == null || !resource.matches("(^|.*,)\\s*service\\.name\\s*=.*"))) {
            defaults.put("otel.service.name", "metahook");
        }
        return defaults;
    }
}
