package dev.metahook.readme;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.metahook.Metahook;
import dev.metahook.api.Controllers;
import dev.metahook.ServeOptions;
import dev.metahook.Server;
import dev.metahook.testing.Requests;
import dev.metahook.testkit.CheckReport;
import dev.metahook.testkit.HookTester;
import dev.metahook.testkit.Manifests;
import dev.metahook.internal.wire.Json;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The code the README and docs/writing-controllers.md show, taken from the pages themselves: it is the user project
 * src/it/consumer file for file, it compiles against metahook, and it serves on the real server.
 */
class ReadmeSnippetsTest {
    private static final Path README = ReadmeCode.README;
    private static final Path CONSUMER = Path.of("src/it/consumer");

    @Test
    void theReadmeBlocksAreTheConsumerProjectsFilesAndNoneIsMissing() throws IOException {
        List<Snippets.Snippet> blocks = Snippets.of(README).all();
        for (Snippets.Snippet block : blocks) {
            assertTrue(block.file() != null, block.where() + ": a README block is a file of src/it/consumer or src/it/spring-boot");
            assertEquals(Files.readString(Path.of(block.file())), block.text(), block.where() + " differs from " + block.file());
        }
        long javaBlocks = Snippets.lines(README).stream().filter(line -> line.equals("```java")).count();
        assertEquals(javaBlocks, blocks.stream().filter(b -> b.language().equals("java")).count(),
                "every Java block of the README is a tagged file of src/it/consumer");
        TreeSet<String> shown = blocks.stream().map(Snippets.Snippet::file).filter(file -> file.startsWith(CONSUMER + "/"))
                .collect(Collectors.toCollection(TreeSet::new));
        assertEquals(consumerSources(), shown, "the consumer's sources and the README's blocks");
    }

    @Test
    void theControllerAuthorsPathStartsOnTheFirstScreens() {
        List<String> lines = Snippets.lines(README);
        int controller = lines.indexOf("<!-- file: src/it/consumer/src/main/java/example/GreetingController.java -->");
        assertTrue(controller >= 0 && controller < 40, "the controller is on the README's first screen: line " + (controller + 1));
        int write = lines.indexOf("## Write a controller");
        assertTrue(write >= 0 && write < 120, "\"Write a controller\" starts at line " + (write + 1));
        assertTrue(lines.contains("mvn -B verify -Pe2e"), "the test command .ci/run runs is in the README");
    }

    @Test
    void theReadmeControllerServesItsHook() {
        Controllers controllers = greetingControllers();
        try (Server server = Metahook.serve(controllers, loopback())) {
            given().port(server.port()).body(Requests.bytes(greetingRequest(Json.object().put("message", "hello"))))
                    .post("/greeting/sync").then()
                    .statusCode(200)
                    .body("children[0].kind", equalTo("ConfigMap"))
                    .body("children[0].metadata.name", equalTo("hi"))
                    .body("children[0].data.message", equalTo("hello"))
                    .body("status.observed", equalTo(0))
                    .body("status.conditions[0].type", equalTo("Ready"))
                    .body("status.conditions[0].reason", equalTo("Written"));
            given().port(server.port()).body(Requests.bytes(greetingRequest(Json.object()))).post("/greeting/sync").then()
                    .statusCode(200)
                    .body("children.size()", equalTo(0))
                    .body("status.conditions[2].type", equalTo("Stalled"))
                    .body("status.conditions[2].status", equalTo("True"))
                    .body("status.conditions[2].reason", equalTo("InvalidSpec"))
                    .body("status.conditions[2].message", equalTo("spec.message: is required"));
        }
    }

    /** What the README's GreetingControllerTest does in the consumer project, from this checkout's root. */
    @Test
    void theReadmeControllerLivesCleanlyWithItsGeneratedManifest() {
        HookTester tester = HookTester.of(greetingControllers(), "greeting");
        HasMetadata greeting = Manifests.read(CONSUMER.resolve("greeting.yaml"), ReadmeCode.type("example.Greeting"));
        CheckReport report = tester.check(greeting);
        assertTrue(report.clean(), report.toString());
    }

    @Test
    void theDecoratorOfTheDocsAttachesABudgetAndTakesItAwayOnFinalize() {
        Controllers controllers = Controllers.builder()
                .decorator("budget", Deployment.class, ReadmeCode.budgetDecorator())
                .build();
        try (Server server = Metahook.serve(controllers, loopback())) {
            given().port(server.port()).body(Requests.bytes(budgetRequest(false))).post("/budget/sync").then()
                    .statusCode(200)
                    .body("attachments[0].kind", equalTo("PodDisruptionBudget"))
                    .body("attachments[0].metadata.namespace", equalTo("default"))
                    .body("attachments[0].spec.selector.matchLabels.app", equalTo("web"))
                    .body("labels.'example.com/budget'", equalTo("web"))
                    .body("containsKey('status')", equalTo(false));
            given().port(server.port()).body(Requests.bytes(budgetRequest(true))).post("/budget/finalize").then()
                    .statusCode(200)
                    .body("attachments.size()", equalTo(0))
                    .body("labels.containsKey('example.com/budget')", equalTo(true))
                    .body("labels.'example.com/budget'", equalTo(null))
                    .body("finalized", equalTo(true));
        }
    }

    private static TreeSet<String> consumerSources() throws IOException {
        TreeSet<String> sources = new TreeSet<>();
        try (Stream<Path> tree = Files.walk(CONSUMER.resolve("src"))) {
            tree.filter(p -> p.toString().endsWith(".java")).forEach(p -> sources.add(p.toString()));
        }
        sources.add(CONSUMER.resolve("greeting.yaml").toString());
        return sources;
    }

    /**
     * The README's manifests step as the consumer's pom configures the plugin (its registration method and service name),
     * through the library the plugin runs: the CRD, the CompositeController and the hook service for the image. The
     * plugin itself runs in src/it/consumer/run and src/it/init/run.
     */
    @Test
    void theReadmeManifestsStepWritesWhatTheClusterNeeds() throws Exception {
        Path deploy = Path.of("target/readme-deploy");
        String pom = Files.readString(CONSUMER.resolve("pom.xml"));
        assertTrue(pom.contains("<controllers>example.GreetingService#controllers</controllers>") && pom.contains("<service>greeting</service>"), pom);
        dev.metahook.manifests.Manifests.write(greetingControllers(),
                dev.metahook.manifests.ManifestOptions.service("greeting", "registry.example.com/greeting:1.0.0"), deploy);
        YAMLMapper yaml = new YAMLMapper();
        JsonNode controller = yaml.readTree(deploy.resolve("greeting-controller.yaml").toFile());
        assertEquals("http://greeting.greeting-system/greeting/sync", controller.at("/spec/hooks/sync/webhook/url").asText());
        assertEquals("configmaps", controller.at("/spec/childResources/0/resource").asText());
        assertEquals("Greeting", yaml.readTree(deploy.resolve("crd-greetings.yaml").toFile()).at("/spec/names/kind").asText());
        String service = Files.readString(deploy.resolve("hook-service.yaml"));
        assertTrue(service.contains("image: registry.example.com/greeting:1.0.0") && service.contains("greeting-hook-token"), service);
        assertTrue(Files.readString(deploy.resolve("kustomization.yaml")).contains("- crd-greetings.yaml"));
    }

    private static Controllers greetingControllers() {
        try {
            return (Controllers) ReadmeCode.type("example.GreetingService").getMethod("controllers").invoke(null);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    private static ServeOptions loopback() {
        return ServeOptions.defaults().host("127.0.0.1").port(0).build();
    }

    private static ObjectNode greetingRequest(ObjectNode spec) {
        ObjectNode parent = Json.object().put("apiVersion", "example.com/v1").put("kind", "Greeting");
        parent.putObject("metadata").put("name", "hi").put("namespace", "default").put("uid", "u-1");
        parent.set("spec", spec);
        ObjectNode controller = Requests.controller(true);
        controller.withObjectProperty("spec").withObjectProperty("parentResource").put("apiVersion", "example.com/v1").put("resource", "greetings");
        ObjectNode request = Json.object();
        request.set("controller", controller);
        request.set("parent", parent);
        request.putObject("children").putObject("ConfigMap.v1");
        return request;
    }

    private static ObjectNode budgetRequest(boolean finalizing) {
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

    /** The docs' OnDeleteDemo says its plural and its columns, and the generated CRD carries them (issue 37 papercuts). */
    @Test
    void theDocsParentTypeGetsItsPluralAndItsPrinterColumns() throws Exception {
        Class<? extends HasMetadata> demo = ReadmeCode.type("OnDeleteDemo");
        JsonNode crd = Json.mapper().readTree(new com.fasterxml.jackson.dataformat.yaml.YAMLMapper().readTree(
                dev.metahook.manifests.Manifests.crdFile(demo, true)).toString());
        assertEquals("ondeletedemos.example.com", crd.at("/metadata/name").asText());
        assertEquals("ondeletedemos", crd.at("/spec/names/plural").asText());
        assertEquals("[\"odd\"]", crd.at("/spec/names/shortNames").toString());
        List<String> columns = new java.util.ArrayList<>();
        crd.at("/spec/versions/0/additionalPrinterColumns").forEach(column -> columns.add(column.path("name").asText()));
        assertEquals(List.of("Ready", "Replicas"), columns);
        assertEquals("ondeletedemoes", io.fabric8.kubernetes.api.Pluralize.toPlural("ondeletedemo"), "what the docs say fabric8 makes without @Plural");
    }
}
