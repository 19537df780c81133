package dev.metahook.readme;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.Metahook;
import dev.metahook.api.Cleaner;
import dev.metahook.api.Cleanup;
import dev.metahook.api.CompositeController;
import dev.metahook.api.Conditions;
import dev.metahook.api.Context;
import dev.metahook.api.Controllers;
import dev.metahook.api.CustomResource;
import dev.metahook.api.DecoratorController;
import dev.metahook.api.Result;
import dev.metahook.api.TerminalException;
import dev.metahook.server.HookServer;
import dev.metahook.server.ServerConfig;
import dev.metahook.testing.Requests;
import dev.metahook.wire.Json;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The README's "Write your own controller", as written there, served and called. */
public class WriteYourOwnControllerTest {

    @Group("example.com")
    @Version("v1")
    public static class Greeting extends CustomResource<Greeting.Spec, Greeting.Status> implements Namespaced {
        public record Spec(String message) {}

        public record Status(int observed, List<Condition> conditions) {}
    }

    public static final class GreetingController implements CompositeController<Greeting, Greeting.Status> {
        @Override
        public Result<Greeting.Status> sync(Greeting greeting, Context context) {
            if (greeting.getSpec() == null || greeting.getSpec().message() == null) {
                throw new TerminalException("InvalidSpec", "spec.message: is required");
            }
            ConfigMap map = new ConfigMapBuilder()
                    .withNewMetadata().withName(greeting.getMetadata().getName()).endMetadata()
                    .addToData("message", greeting.getSpec().message())
                    .build();
            Conditions conditions = Conditions.from(greeting, context.clock()).ready("Written", "the ConfigMap holds the message");
            int observed = context.children().all(ConfigMap.class).size();
            return Result.of(map)
                    .deletingUnlisted()
                    .withStatus(new Greeting.Status(observed, conditions.list()));
        }
    }

    public static final class BudgetDecorator implements DecoratorController<Deployment, Object>, Cleaner<Deployment, Object> {
        @Override
        public Result<Object> sync(Deployment deployment, Context context) {
            String name = deployment.getMetadata().getName();
            PodDisruptionBudget budget = new PodDisruptionBudgetBuilder()
                    .withNewMetadata().withName(name).endMetadata()
                    .withNewSpec().withMinAvailable(new IntOrString(1)).withSelector(deployment.getSpec().getSelector()).endSpec()
                    .build();
            return Result.of(budget).deletingUnlisted().withLabel("example.com/budget", name);
        }

        @Override
        public Cleanup<Object> cleanup(Deployment deployment, Context context) {
            return Cleanup.done(Result.of().deletingUnlisted().removingLabel("example.com/budget"));
        }
    }

    @Test
    void theReadmeDecoratorAttachesABudgetAndTakesItAwayOnFinalize() {
        Controllers controllers = Controllers.builder().decorator("budget", Deployment.class, new BudgetDecorator()).build();
        ServerConfig config = ServerConfig.fromEnvironment(Map.of("HOST", "127.0.0.1", "PORT", "0"));
        try (HookServer server = Metahook.serve(controllers, config, Clock.systemUTC())) {
            given().port(server.port()).body(Requests.bytes(decoratorRequest(false))).post("/budget/sync").then()
                    .statusCode(200)
                    .body("attachments[0].kind", equalTo("PodDisruptionBudget"))
                    .body("attachments[0].metadata.namespace", equalTo("default"))
                    .body("attachments[0].spec.selector.matchLabels.app", equalTo("web"))
                    .body("labels.'example.com/budget'", equalTo("web"))
                    .body("containsKey('status')", equalTo(false));
            given().port(server.port()).body(Requests.bytes(decoratorRequest(true))).post("/budget/finalize").then()
                    .statusCode(200)
                    .body("attachments.size()", equalTo(0))
                    .body("labels.containsKey('example.com/budget')", equalTo(true))
                    .body("labels.'example.com/budget'", equalTo(null))
                    .body("finalized", equalTo(true));
        }
    }

    private static ObjectNode decoratorRequest(boolean finalizing) {
        ObjectNode controller = Json.object().put("apiVersion", "metacontroller.k8s.io/v1alpha1").put("kind", "DecoratorController");
        controller.putObject("metadata").put("name", "budget");
        ObjectNode spec = controller.putObject("spec");
        spec.putArray("resources").addObject().put("apiVersion", "apps/v1").put("resource", "deployments");
        spec.putArray("attachments").addObject().put("apiVersion", "policy/v1").put("resource", "poddisruptionbudgets");
        ObjectNode deployment = Json.object().put("apiVersion", "apps/v1").put("kind", "Deployment");
        deployment.putObject("metadata").put("name", "web").put("namespace", "default").put("uid", "d-1");
        deployment.putObject("spec").putObject("selector").putObject("matchLabels").put("app", "web");
        ObjectNode request = Json.object();
        request.set("controller", controller);
        request.set("object", deployment);
        request.putObject("attachments").putObject("PodDisruptionBudget.policy/v1");
        request.putObject("related");
        request.put("finalizing", finalizing);
        return request;
    }

    @Test
    void theReadmeControllerServesItsHook() {
        Controllers controllers = Controllers.builder()
                .composite("greeting", Greeting.class, new GreetingController())
                .build();
        ServerConfig config = ServerConfig.fromEnvironment(Map.of("HOST", "127.0.0.1", "PORT", "0"));
        try (HookServer server = Metahook.serve(controllers, config, Clock.systemUTC())) {
            ObjectNode request = request(Json.object().put("message", "hello"));
            given().port(server.port()).body(Requests.bytes(request)).post("/greeting/sync").then()
                    .statusCode(200)
                    .body("children[0].data.message", equalTo("hello"))
                    .body("status.observed", equalTo(0))
                    .body("status.conditions[0].reason", equalTo("Written"));
            given().port(server.port()).body(Requests.bytes(request(Json.object()))).post("/greeting/sync").then()
                    .statusCode(200)
                    .body("children.size()", equalTo(0))
                    .body("status.conditions[2].type", equalTo("Stalled"))
                    .body("status.conditions[2].status", equalTo("True"))
                    .body("status.conditions[2].message", equalTo("spec.message: is required"));
        }
    }

    private static ObjectNode request(ObjectNode spec) {
        ObjectNode parent = Json.object().put("apiVersion", "example.com/v1").put("kind", "Greeting");
        parent.putObject("metadata").put("name", "hi").put("namespace", "default").put("uid", "u-1");
        parent.set("spec", spec);
        ObjectNode request = Json.object();
        ObjectNode controller = Requests.controller(true);
        controller.with("spec").with("parentResource").put("apiVersion", "example.com/v1").put("resource", "greetings");
        request.set("controller", controller);
        request.set("parent", parent);
        request.putObject("children").putObject("ConfigMap.v1");
        return request;
    }
}
