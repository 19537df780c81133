package dev.metahook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.metahook.testing.TestServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code render}: the answer as YAML, and with observed children the patch Metacontroller would apply to each. */
class RenderCommandTest {
    @TempDir
    Path dir;

    private record Result(int exit, String out, String err) {
        JsonNode yaml() throws Exception {
            return new YAMLMapper().readTree(out);
        }
    }

    private static Result render(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = Main.exitCode(() -> RenderCommand.run(List.of(args), Map.of(),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8)));
        return new Result(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void rendersWhatTheBuiltInControllerWouldCreate() throws Exception {
        Result result = render("--controller", "metacontroller/webapp-controller.yaml", "--parent", "examples/webapp.yaml");
        assertEquals(0, result.exit(), result.err());
        JsonNode answer = result.yaml();
        assertEquals("Deployment", answer.at("/children/0/kind").asText());
        assertEquals("Service", answer.at("/children/1/kind").asText());
        assertEquals("Creating", answer.at("/status/conditions/0/reason").asText());
        assertEquals(2, answer.at("/children/0/spec/replicas").intValue(), "numbers stay numbers in the YAML");
    }

    /**
     * The observed StatefulSet is stored as the chosen Kubernetes stores it: its claim template with a null
     * creationTimestamp on 1.33, without on 1.37; the Database answers each in that form, so neither is a change.
     */
    @Test
    void storesTheObservedChildrenAsTheChosenKubernetesDoes() throws Exception {
        Result first = render("--controller", "metacontroller/database-controller.yaml", "--parent", "examples/database.yaml");
        JsonNode statefulSet = StreamSupport.stream(first.yaml().get("children").spliterator(), false)
                .filter(child -> child.path("kind").asText().equals("StatefulSet")).findFirst().orElseThrow();
        Path observed = dir.resolve("observed.yaml");
        Files.writeString(observed, new YAMLMapper().writeValueAsString(statefulSet));
        String claim = "/spec/volumeClaimTemplates/0/metadata";
        for (String version : new String[] {"1.33", "1.37"}) {
            Result result = render("--controller", "metacontroller/database-controller.yaml", "--parent", "examples/database.yaml",
                    "--observed", observed.toString(), "--kubernetes-version", version);
            assertEquals(0, result.exit(), result.err());
            JsonNode answered = StreamSupport.stream(result.yaml().get("children").spliterator(), false)
                    .filter(child -> child.path("kind").asText().equals("StatefulSet")).findFirst().orElseThrow();
            assertEquals(version.equals("1.33"), answered.at(claim).has("creationTimestamp"), version + ": " + answered.at(claim));
            // the observed file has no last-applied annotation, which Metacontroller adds; the spec is left as stored
            List<String> changed = StreamSupport.stream(result.yaml().at("/diff").get("StatefulSet.apps/v1 default/orders").spliterator(), false)
                    .map(op -> op.path("path").asText()).toList();
            assertEquals(List.of("/metadata/annotations"), changed, version + ": " + result.out());
        }
    }

    @Test
    void showsNoChangeForChildrenAlreadyAsDesired() throws Exception {
        Result result = render("--controller", "metacontroller/webapp-controller.yaml", "--parent", "examples/webapp.yaml",
                "--observed", "examples/webapp-observed.yaml");
        assertEquals(0, result.exit(), result.err());
        JsonNode diff = result.yaml().get("diff");
        assertEquals(0, diff.get("Deployment.apps/v1 default/hello").size(), diff.toString());
        assertEquals(0, diff.get("Service.v1 default/hello").size(), diff.toString());
        assertEquals("RollingOut", result.yaml().at("/status/conditions/0/reason").asText());
    }

    @Test
    void showsThePatchOfASpecChange() throws Exception {
        Path parent = dir.resolve("webapp.yaml");
        Files.writeString(parent, Files.readString(Path.of("examples/webapp.yaml")).replace("1.4.2", "1.5.0"));
        Result result = render("--controller", "metacontroller/webapp-controller.yaml", "--parent", parent.toString(),
                "--observed", "examples/webapp-observed.yaml");
        JsonNode patch = result.yaml().at("/diff/Deployment.apps~1v1 default~1hello");
        assertTrue(patch.toString().contains("{\"op\":\"replace\",\"path\":\"/spec/template/spec/containers/0/image\","
                + "\"value\":\"ghcr.io/example/hello:1.5.0\"}"), patch.toString());
    }

    @Test
    void rendersAHookAtAUrl() throws Exception {
        try (TestServer server = TestServer.start(BuiltInControllers.all("a key for the render test!".getBytes()))) {
            Result result = render("--controller", "metacontroller/database-controller.yaml", "--parent", "examples/database.yaml",
                    "--url", server.url(""));
            assertEquals(0, result.exit(), result.err());
            assertEquals("Pending", result.yaml().at("/status/phase").asText());
            assertEquals(4, result.yaml().get("children").size());
        }
    }

    @Test
    void namesTheFileTheLineAndWhatWasExpected() throws Exception {
        Path broken = dir.resolve("broken.yaml");
        Files.writeString(broken, "apiVersion: metahook.dev/v1\nkind: WebApp\nmetadata:\n  namespace: default\n");
        Result result = render("--controller", "metacontroller/webapp-controller.yaml", "--parent", broken.toString());
        assertEquals(2, result.exit());
        Path notYaml = dir.resolve("not.yaml");
        Files.writeString(notYaml, "kind: [\n");
        assertEquals(2, render("--controller", notYaml.toString(), "--parent", broken.toString()).exit());
        assertEquals(2, render("--parent", broken.toString()).exit());
        assertEquals(2, render("--controller", "metacontroller/webapp-controller.yaml", "--parent", "examples/webapp.yaml", "--bogus", "x").exit());
    }

    @Test
    void reportsAHookThatAnswersAnError() throws Exception {
        Path parent = dir.resolve("webapp.yaml");
        Files.writeString(parent, Files.readString(Path.of("examples/webapp.yaml")).replace("kind: WebApp", "kind: Gadget"));
        Result result = render("--controller", "metacontroller/webapp-controller.yaml", "--parent", parent.toString());
        assertEquals(1, result.exit());
        assertTrue(result.err().contains("status 400"), result.err());
    }
}
