package dev.metahook.spring;

import dev.metahook.Server;
import dev.metahook.api.Controllers;
import dev.metahook.internal.server.Tracing;
import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.OpenTelemetry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.logging.LogLevel;
import org.springframework.boot.logging.LoggerConfiguration;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * Serves the application's {@link Controllers} bean: metahook's server on {@code metahook.port} (8080 unless set,
 * so move Boot's {@code server.port} or this one), its meters also on Boot's {@code MeterRegistry}, its spans through
 * Boot's {@code OpenTelemetry} bean when there is one (else from the {@code OTEL_*} variables, as the plain service),
 * its readiness the {@code metahook} health contributor; after a SIGTERM the process exits {@code 0} when the drain
 * answered every call and {@code 1} when it did not (unless {@code spring.main.register-shutdown-hook} is false).
 * Nothing happens without a {@code Controllers} bean.
 */
@AutoConfiguration(afterName = {
        "org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration",
        "org.springframework.boot.actuate.autoconfigure.opentelemetry.OpenTelemetryAutoConfiguration"})
@ConditionalOnBean(Controllers.class)
@EnableConfigurationProperties(MetahookProperties.class)
public class MetahookAutoConfiguration {
    /** The hook server, started with the context and drained when it closes; inject it as {@link Server}. */
    @Bean
    @ConditionalOnMissingBean(Server.class)
    HookServerLifecycle metahookServer(Controllers controllers, MetahookProperties properties,
            ObjectProvider<MeterRegistry> meterRegistry, ObjectProvider<OpenTelemetry> openTelemetry,
            ObjectProvider<LoggingSystem> logging, Environment environment) {
        logging.ifAvailable(MetahookAutoConfiguration::quietHttpServer);
        HookServerLifecycle server = new HookServerLifecycle(controllers, properties, meterRegistry::getIfUnique,
                () -> tracing(openTelemetry.getIfUnique()));
        if (environment.getProperty("spring.main.register-shutdown-hook", Boolean.class, true)) {
            SpringApplication.getShutdownHandlers().add(new DrainExitCode(server, () -> stopLogging(logging.getIfAvailable())));
        }
        return server;
    }

    private static void stopLogging(LoggingSystem logging) {
        Runnable stop = logging == null ? null : logging.getShutdownHandler();
        if (stop != null) {
            stop.run();
        }
    }

    /**
     * Jetty and Javalin at WARN, as the plain service logs them, unless the application set their levels: their INFO
     * lines say that a server started and stopped, which metahook's own lines say already.
     */
    private static void quietHttpServer(LoggingSystem logging) {
        for (String logger : new String[] {"org.eclipse.jetty", "io.javalin"}) {
            LoggerConfiguration configured = logging.getLoggerConfiguration(logger);
            if (configured == null || configured.getConfiguredLevel() == null) {
                logging.setLogLevel(logger, LogLevel.WARN);
            }
        }
    }

    private static Tracing tracing(OpenTelemetry openTelemetry) {
        return openTelemetry != null ? Tracing.to(openTelemetry) : Tracing.fromEnvironment(System.getenv(), System.getProperties());
    }

    /** The {@code metahook} health contributor, when the application has Actuator. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(HealthIndicator.class)
    static class Health {
        @Bean
        HealthIndicator metahookHealthIndicator(HookServerLifecycle server) {
            return new HookServerHealth(server);
        }
    }
}
