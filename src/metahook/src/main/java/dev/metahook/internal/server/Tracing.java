package dev.metahook.internal.server;

import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.OpenTelemetry;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where the spans of hook calls go ({@link CallSpans}): the OpenTelemetry a service runs with, and what
 * flushes it when the service stops. Off unless the standard {@code OTEL_*} settings ask for traces
 * ({@link #wanted}); off, every span is a no-op and a call does no tracing work at all. On, the SDK comes
 * from OpenTelemetry's autoconfigure module when the application brings it (the built-in service does;
 * docs/production.md#tracing), is made the global one, so that a controller's own spans ({@code
 * GlobalOpenTelemetry.getTracer(...)}) go the same way, and is flushed at shutdown. An OpenTelemetry the
 * application (or the Java agent) already made global is used as it is.
 */
public final class Tracing implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Tracing.class);
    static final String AUTOCONFIGURE = "io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdk";

    /** No spans. */
    public static final Tracing OFF = new Tracing(OpenTelemetry.noop(), false, () -> { });

    private final OpenTelemetry openTelemetry;
    private final boolean on;
    private final Runnable shutdown;

    Tracing(OpenTelemetry openTelemetry, boolean on, Runnable shutdown) {
        this.openTelemetry = openTelemetry;
        this.on = on;
        this.shutdown = shutdown;
    }

    /** Spans to this OpenTelemetry, which the caller keeps and closes. */
    public static Tracing to(OpenTelemetry openTelemetry) {
        return new Tracing(openTelemetry, true, () -> { });
    }

    /**
     * Tracing as these variables and system properties ask for ({@link #wanted}).
     *
     * @throws IllegalArgumentException when the OpenTelemetry settings cannot be used (an unknown exporter, a bad value)
     */
    public static Tracing fromEnvironment(Map<String, String> environment, Properties properties) {
        if (GlobalOpenTelemetry.isSet()) {
            LOG.info("tracing with the global OpenTelemetry the application set");
            return to(GlobalOpenTelemetry.get());
        }
        UnaryOperator<String> settings = name -> setting(name, environment, properties);
        if (!wanted(settings)) {
            return OFF;
        }
        if (!onClassPath(AUTOCONFIGURE)) {
            LOG.warn("the OTEL_* settings ask for traces, but the OpenTelemetry SDK is not on the class path: add"
                    + " io.opentelemetry:opentelemetry-sdk-extension-autoconfigure and an exporter (docs/production.md#tracing);"
                    + " tracing is off");
            return OFF;
        }
        Tracing tracing = SdkTracing.start(settings);
        LOG.info("tracing on: spans of hook calls exported with {}", exporters(settings));
        return tracing;
    }

    /**
     * Whether the settings ask for traces, read as OpenTelemetry's autoconfigure reads them: off with {@code
     * otel.sdk.disabled=true}; else on when {@code otel.traces.exporter} names an exporter other than {@code
     * none}; else, when it is not set, on when an OTLP endpoint is ({@code otel.exporter.otlp.endpoint} or
     * {@code otel.exporter.otlp.traces.endpoint}). Nothing set, tracing is off: an SDK that exports to
     * nobody would still cost every call its span.
     *
     * @param settings a property's value by its name ({@code otel.traces.exporter}), null when not set
     */
    static boolean wanted(UnaryOperator<String> settings) {
        if ("true".equalsIgnoreCase(settings.apply("otel.sdk.disabled"))) {
            return false;
        }
        String exporters = settings.apply("otel.traces.exporter");
        if (exporters != null) {
            return Arrays.stream(exporters.split(",")).map(String::trim).anyMatch(name -> !name.isEmpty() && !name.equals("none"));
        }
        return settings.apply("otel.exporter.otlp.endpoint") != null || settings.apply("otel.exporter.otlp.traces.endpoint") != null;
    }

    /** A setting as autoconfigure reads it: the system property, else the variable ({@code otel.traces.exporter}: {@code OTEL_TRACES_EXPORTER}); blank is not set. */
    static String setting(String name, Map<String, String> environment, Properties properties) {
        String value = properties.getProperty(name);
        if (value == null) {
            value = environment.get(name.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_'));
        }
        return value == null || value.isBlank() ? null : value.trim();
    }

    public OpenTelemetry openTelemetry() {
        return openTelemetry;
    }

    /** Whether calls get spans. */
    boolean on() {
        return on;
    }

    /** Flushes the spans still buffered and stops the SDK this started (nothing for one it was given). */
    @Override
    public void close() {
        try {
            shutdown.run();
        } catch (RuntimeException e) {
            LOG.warn("could not flush the last spans: {}", e.toString());
        }
    }

    private static boolean onClassPath(String className) {
        try {
            Class.forName(className, false, Tracing.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    private static String exporters(UnaryOperator<String> settings) {
        String exporters = settings.apply("otel.traces.exporter");
        return exporters == null ? "otlp" : exporters;
    }
}
