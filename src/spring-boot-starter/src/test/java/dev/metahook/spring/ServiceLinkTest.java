package dev.metahook.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.metahook.spring.greeting.GreetingApplication;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * A Boot application in a namespace whose Services set service links, as Kubernetes does in every pod unless its spec
 * says {@code enableServiceLinks: false}: a Service named {@code metahook} sets {@code METAHOOK_PORT=tcp://IP:80}, which
 * Boot binds to {@code metahook.port}, and one named {@code management} sets {@code MANAGEMENT_PORT}, which the starter
 * reads when no property sets the management port. The application stops saying which Service and what to do.
 */
class ServiceLinkTest {
    private static final String ACTION = "Set enableServiceLinks: false in the pod spec, as the Deployment the manifests goal writes does.";

    private final ApplicationContextRunner boot = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(MetahookAutoConfiguration.class)).withUserConfiguration(GreetingApplication.class);

    @TempDir
    Path temp;

    @Test
    void aServiceNamedMetahookStopsTheApplicationNamingTheService() throws Exception {
        assertEquals(List.of("METAHOOK_PORT is 'tcp://10.0.0.9:80', a service link: Kubernetes sets it in every pod of a namespace that has"
                + " a Service named metahook, and Boot binds it to metahook.port.", ACTION), failureAnalysis("METAHOOK_PORT", "tcp://10.0.0.9:80"));
    }

    @Test
    void aServiceNamedManagementStopsTheApplicationNamingTheService() throws Exception {
        assertEquals(List.of("MANAGEMENT_PORT is 'tcp://10.0.0.7:8081', a service link: Kubernetes sets it in every pod of a namespace that"
                + " has a Service named management.", ACTION), failureAnalysis("MANAGEMENT_PORT", "tcp://10.0.0.7:8081"));
    }

    /** Boot's own analysis names the property, the value and the variable: a port that is no link is Boot's to explain. */
    @Test
    void leavesAValueThatIsNoServiceLinkToBoot() {
        withVariable("METAHOOK_PORT", "http").run(context -> {
            assertThat(context).hasFailed();
            assertNull(new ServiceLinkFailureAnalyzer().analyze(context.getStartupFailure()));
        });
        boot.withPropertyValues("metahook.port=tcp://10.0.0.9:80").run(context -> {
            assertThat(context).hasFailed();
            assertNull(new ServiceLinkFailureAnalyzer().analyze(context.getStartupFailure()), "the application's own property, no variable");
        });
    }

    @Test
    void aServiceNamedMetahookManagementIsNamedForTheManagementPort() {
        withVariable("METAHOOK_MANAGEMENT_PORT", "tcp://10.0.0.9:8081").run(context -> assertEquals("METAHOOK_MANAGEMENT_PORT is"
                + " 'tcp://10.0.0.9:8081', a service link: Kubernetes sets it in every pod of a namespace that has a Service named"
                + " metahook-management, and Boot binds it to metahook.management-port.",
                new ServiceLinkFailureAnalyzer().analyze(context.getStartupFailure()).getDescription()));
    }

    /** The application with this variable as the whole of its environment. */
    private ApplicationContextRunner withVariable(String variable, String value) {
        String name = StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME;
        return boot.withInitializer(context -> context.getEnvironment().getPropertySources()
                .replace(name, new SystemEnvironmentPropertySource(name, Map.<String, Object>of(variable, value))));
    }

    /**
     * Runs the application in a JVM of its own with this variable in its environment, as a pod's container gets it, and
     * returns the description and the action of what Boot reports; it must not start, and print no stack trace.
     */
    private List<String> failureAnalysis(String variable, String value) throws Exception {
        List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "org.springframework.boot.SpringApplication",
                "--spring.main.sources=" + GreetingApplication.class.getName(), "--metahook.host=127.0.0.1");
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(temp.resolve("application.log").toFile());
        builder.environment().put(variable, value);
        Process application = builder.start();
        if (!application.waitFor(3, TimeUnit.MINUTES)) {
            application.destroyForcibly();
            throw new AssertionError("the application did not stop:\n" + Files.readString(temp.resolve("application.log")));
        }
        List<String> log = Files.readAllLines(temp.resolve("application.log"), StandardCharsets.UTF_8);
        String text = String.join("\n", log);
        assertEquals(1, application.exitValue(), text);
        assertTrue(text.contains("APPLICATION FAILED TO START"), text);
        assertFalse(text.contains("\tat "), "no stack trace\n" + text);
        return List.of(log.get(log.indexOf("Description:") + 2), log.get(log.indexOf("Action:") + 2));
    }
}
