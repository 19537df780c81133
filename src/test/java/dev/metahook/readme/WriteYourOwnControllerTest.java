package dev.metahook.readme;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.api.CompositeController;
import dev.metahook.api.CustomResource;
import dev.metahook.api.ObservedChildren;
import dev.metahook.api.SyncResult;
import dev.metahook.api.TerminalException;
import dev.metahook.engine.Controllers;
import dev.metahook.engine.HookEngine;
import dev.metahook.server.HookServer;
import dev.metahook.server.ServerConfig;
import dev.metahook.testing.Requests;
import dev.metahook.wire.Json;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The README's "Write your own controller", as written there, served and called. */
class WriteYourOwnControllerTest {

    @Group("example.com")
    @Version("v1")
    public static class Greeting extends CustomResource<Greeting.Spec, Map<String, Object>> implements Namespaced {
        public record Spec(String message) {}
    }

    public static final class GreetingController implements CompositeController<Greeting> {
        @Override
        public SyncResult sync(Greeting greeting, ObservedChildren children) {
            if (greeting.getSpec() == null || greeting.getSpec().message() == null) {
                throw new TerminalException("InvalidSpec", "spec.message: is required");
            }
            ConfigMap map = new ConfigMapBuilder()
                    .withNewMetadata().withName(greeting.getMetadata().getName()).endMetadata()
                    .addToData("message", greeting.getSpec().message())
                    .build();
            return SyncResult.of(map)
                    .withStatus(Map.of("observed", children.all(ConfigMap.class).size()))
                    .deletingUnlisted();
        }
    }

    @Test
    void theReadmeControllerServesItsHook() {
        Controllers controllers = Controllers.builder()
                .composite("greeting", Greeting.class, new GreetingController())
                .build();
        ServerConfig config = ServerConfig.fromEnvironment(Map.of("HOST", "127.0.0.1", "PORT", "0"));
        try (HookServer server = HookServer.start(config, new HookEngine(controllers, Clock.systemUTC()))) {
            ObjectNode parent = Json.object().put("apiVersion", "example.com/v1").put("kind", "Greeting");
            parent.putObject("metadata").put("name", "hi").put("namespace", "default").put("uid", "u-1");
            parent.putObject("spec").put("message", "hello");
            ObjectNode request = Json.object();
            ObjectNode controller = Requests.controller(true);
            controller.with("spec").with("parentResource").put("apiVersion", "example.com/v1").put("resource", "greetings");
            request.set("controller", controller);
            request.set("parent", parent);
            request.putObject("children").putObject("ConfigMap.v1");
            given().port(server.port()).body(Requests.bytes(request)).post("/greeting/sync").then()
                    .statusCode(200)
                    .body("children[0].data.message", equalTo("hello"))
                    .body("status.observed", equalTo(0));
        }
    }
}
