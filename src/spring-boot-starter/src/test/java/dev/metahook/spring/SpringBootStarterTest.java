package dev.metahook.spring;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.metahook.Metahook;
import dev.metahook.ServeOptions;
import dev.metahook.Server;
import dev.metahook.api.Controllers;
import dev.metahook.spring.greeting.Greeting;
import dev.metahook.spring.greeting.GreetingApplication;
import dev.metahook.testkit.Answer;
import dev.metahook.testkit.CheckReport;
import dev.metahook.testkit.HookTester;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.logging.LogLevel;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.boot.test.context.SpringBootTest;

@SpringBootTest(classes = GreetingApplication.class,
        properties = {"metahook.host=127.0.0.1", "metahook.port=0", "metahook.shutdown-idle-seconds=0"})
class SpringBootStarterTest {
    @Autowired
    Controllers controllers;
    @Autowired
    Server server;
    @Autowired
    MeterRegistry bootRegistry;
    @Autowired
    @Qualifier("metahookHealthIndicator")
    HealthIndicator health;

    @Test
    void answersAHookCallWithTheBytesThePlainServiceAnswers() throws Exception {
        HttpResponse<byte[]> fromBoot = HookCalls.post(server.port(), "/greeting/sync", HookCalls.SYNC);
        try (Server plain = Metahook.serve(controllers, ServeOptions.defaults().host("127.0.0.1").port(0).build())) {
            HttpResponse<byte[]> fromPlain = HookCalls.post(plain.port(), "/greeting/sync", HookCalls.SYNC);
            assertEquals(200, fromBoot.statusCode(), new String(fromBoot.body()));
            assertArrayEquals(fromPlain.body(), fromBoot.body());
            assertEquals(fromPlain.headers().firstValue("ETag"), fromBoot.headers().firstValue("ETag"));
        }
        assertTrue(new String(fromBoot.body()).contains("\"message\":\"hello, from Spring\""), new String(fromBoot.body()));
    }

    @Test
    void refusesWhatThePlainServiceRefuses() throws Exception {
        assertEquals(400, HookCalls.post(server.port(), "/greeting/sync", "{\"parent\":[]}").statusCode());
        assertEquals(404, HookCalls.post(server.port(), "/nobody/sync", HookCalls.SYNC).statusCode());
    }

    @Test
    void testsTheBeanDefinedControllerWithHookTester() {
        HookTester tester = HookTester.of(controllers, "greeting");
        Greeting greeting = greeting();
        Answer answer = tester.sync(greeting).call();
        assertTrue(answer.ok(), answer.toString());
        assertEquals("hello, from Spring", answer.child(ConfigMap.class, "hi").orElseThrow().getData().get("message"));
        CheckReport report = tester.check(greeting);
        assertTrue(report.clean(), report.toString());
    }

    @Test
    void countsHookCallsOnBootsMeterRegistry() throws Exception {
        HookCalls.post(server.port(), "/greeting/sync", HookCalls.SYNC);
        // a call is counted once its answer is written, which the client may see first
        await().atMost(Duration.ofSeconds(30)).until(() -> bootRegistry.find("metahook.hook.requests")
                .tag("controller", "greeting").tag("code", "200").timer(), timer -> timer != null && timer.count() >= 1);
    }

    @Test
    void reportsServingAsUpHealth() {
        assertEquals(Status.UP, health.health().getStatus());
        assertEquals(server.port(), health.health().getDetails().get("port"));
    }

    @Test
    void logsThroughBootsLoggingWithJettyAtWarn(@Autowired LoggingSystem logging) {
        assertEquals(LogLevel.WARN, logging.getLoggerConfiguration("org.eclipse.jetty").getEffectiveLevel());
        assertEquals(LogLevel.WARN, logging.getLoggerConfiguration("io.javalin").getEffectiveLevel());
    }

    private static Greeting greeting() {
        Greeting greeting = new Greeting();
        greeting.setMetadata(new ObjectMetaBuilder().withName("hi").withNamespace("default").build());
        greeting.setSpec(new Greeting.Spec("hello"));
        return greeting;
    }
}
