package dev.metahook.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.metahook.Server;
import dev.metahook.spring.greeting.GreetingApplication;
import java.io.IOException;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

class ShutdownTest {
    @Test
    void closingTheContextDrainsTheHookServer() throws Exception {
        ConfigurableApplicationContext context = new SpringApplicationBuilder(GreetingApplication.class)
                .properties("metahook.host=127.0.0.1", "metahook.port=0", "metahook.shutdown-idle-seconds=0").run();
        Server server = context.getBean(Server.class);
        HealthIndicator health = context.getBean("metahookHealthIndicator", HealthIndicator.class);
        int port = server.port();
        assertEquals(200, HookCalls.post(port, "/greeting/sync", HookCalls.SYNC).statusCode());

        context.close();

        assertEquals(Status.OUT_OF_SERVICE, health.health().getStatus());
        assertEquals(Map.of("drained", true), health.health().getDetails());
        assertThrows(IOException.class, () -> HookCalls.post(port, "/greeting/sync", HookCalls.SYNC));
    }
}
