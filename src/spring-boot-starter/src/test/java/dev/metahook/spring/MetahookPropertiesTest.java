package dev.metahook.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.metahook.Server;
import dev.metahook.internal.server.ServerConfig;
import dev.metahook.spring.greeting.GreetingApplication;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

class MetahookPropertiesTest {
    /** The plain service's variables that are not the hook server's: Boot's logging and tracing, the reference controllers. */
    private static final Set<String> NOT_THE_SERVERS = Set.of("LOG_FORMAT", "LOG_LEVEL", "METAHOOK_DATABASE_KEY",
            "METAHOOK_DATABASE_KEY_FILE", "METAHOOK_EXAMPLES", "OTEL_EXPORTER_OTLP_ENDPOINT");

    private final ApplicationContextRunner boot = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(MetahookAutoConfiguration.class));

    @Test
    void readsEachPropertyAsTheVariableOfTheSameName() {
        Map<String, String> variables = Map.ofEntries(Map.entry("HOST", "127.0.0.1"), Map.entry("PORT", "9090"),
                Map.entry("MANAGEMENT_PORT", "9091"), Map.entry("MAX_BODY_SIZE", "2Mi"), Map.entry("IDLE_TIMEOUT_SECONDS", "100"),
                Map.entry("SHUTDOWN_TIMEOUT_SECONDS", "7"), Map.entry("SHUTDOWN_IDLE_SECONDS", "1"),
                Map.entry("ACCEPT_QUEUE_SIZE", "64"), Map.entry("AUTH_BEARER_TOKEN_FILE", "/var/run/token"),
                Map.entry("TLS_CERT_FILE", "/tls/tls.crt"), Map.entry("TLS_KEY_FILE", "/tls/tls.key"),
                Map.entry("TLS_CLIENT_CA_FILE", "/tls/ca.crt"), Map.entry("TLS_EXPIRY_WARNING_DAYS", "14"));
        Map<String, String> properties = new java.util.HashMap<>();
        variables.forEach((variable, value) -> properties.put(MetahookProperties.property(variable), value));
        MetahookProperties bound = new Binder(new MapConfigurationPropertySource(properties))
                .bind("metahook", MetahookProperties.class).get();
        assertEquals(ServerConfig.fromEnvironment(variables), HookServerLifecycle.config(bound, Map.of()));
    }

    @Test
    void aSettingNoPropertySetsIsThePlainServicesVariableAsTheGeneratedDeploymentSetsIt() {
        MetahookProperties properties = new MetahookProperties();
        properties.setPort(9090);
        Map<String, String> deployment = Map.of("PORT", "8080", "MANAGEMENT_PORT", "8081",
                "AUTH_BEARER_TOKEN_FILE", "/var/run/metahook/token", "LOG_FORMAT", "json");
        ServerConfig config = HookServerLifecycle.config(properties, deployment);
        assertEquals(ServerConfig.fromEnvironment(Map.of("PORT", "9090", "MANAGEMENT_PORT", "8081",
                "AUTH_BEARER_TOKEN_FILE", "/var/run/metahook/token")), config);
    }

    @Test
    void aSettingOutOfRangeIsAnErrorNamingTheProperty() {
        MetahookProperties properties = new MetahookProperties();
        properties.setPort(8080);
        properties.setManagementPort(8080);
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> HookServerLifecycle.config(properties));
        assertEquals("metahook.management-port must differ from metahook.port, both are 8080", error.getMessage());
    }

    /** A setting from the process's variable is named as the variable: the application set no property. */
    @Test
    void aVariableOutOfRangeIsAnErrorNamingTheVariable() {
        MetahookProperties properties = new MetahookProperties();
        properties.setPort(8080);
        assertEquals("MANAGEMENT_PORT must differ from metahook.port, both are 8080", assertThrows(IllegalArgumentException.class,
                () -> HookServerLifecycle.config(properties, Map.of("MANAGEMENT_PORT", "8080"))).getMessage());
        assertEquals("MANAGEMENT_PORT must be a whole number, got 'management'", assertThrows(IllegalArgumentException.class,
                () -> HookServerLifecycle.config(new MetahookProperties(), Map.of("MANAGEMENT_PORT", "management"))).getMessage());
    }

    @Test
    void anApplicationWithABadSettingDoesNotStart() {
        boot.withUserConfiguration(GreetingApplication.class).withPropertyValues("metahook.max-body-size=2Gi")
                .run(context -> assertThat(context).getFailure().rootCause()
                        .hasMessage("metahook.max-body-size must be between 1 and 1Gi (1073741824 bytes), got 2147483648"));
    }

    @Test
    void servesNothingWithoutAControllersBean() {
        boot.withUserConfiguration(Empty.class).run(context -> assertThat(context).doesNotHaveBean(Server.class));
    }

    @Test
    void describesAPropertyForEveryVariableOfTheHookServer() throws IOException {
        String configuration = Files.readString(Path.of("docs/configuration.md"));
        Set<String> expected = new TreeSet<>();
        Matcher row = Pattern.compile("(?m)^\\| `([A-Z_]+)`(?:, `([A-Z_]+)`)? \\|").matcher(configuration);
        while (row.find()) {
            for (int group = 1; group <= 2; group++) {
                if (row.group(group) != null && !NOT_THE_SERVERS.contains(row.group(group))) {
                    expected.add(MetahookProperties.property(row.group(group)));
                }
            }
        }
        JsonNode metadata = new ObjectMapper().readTree(MetahookPropertiesTest.class.getResource("/META-INF/spring-configuration-metadata.json"));
        Set<String> described = new TreeSet<>();
        for (JsonNode property : metadata.get("properties")) {
            assertThat(property.path("description").asText()).isNotBlank();
            described.add(property.get("name").asText());
        }
        assertEquals(expected, described);
    }

    @Configuration(proxyBeanMethods = false)
    static class Empty {
    }
}
