package dev.metahook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.testing.TestServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** {@code check --url} is clean on every example, spec change included, served as METAHOOK_EXAMPLES=true serves them. */
class ExamplesCheckTest {
    @RegisterExtension
    static final TestServer server = TestServer.of(
            () -> BuiltInControllers.all("a key for the examples check".getBytes(), Map.of("METAHOOK_EXAMPLES", "true")));

    @TempDir
    Path dir;

    @Test
    void blueGreenIsCleanThroughARollout() throws Exception {
        assertClean("bluegreen", "my-bluegreen.yaml", "component: frontend\n    spec:", "component: frontend\n        release: two\n    spec:");
    }

    /** A new image rolls through the pods (RollingRecreate) on a Metacontroller whose rolling update finds them. */
    @Test
    void catSetIsCleanThroughANewImage() throws Exception {
        assertClean("catset", "my-catset.yaml", "nginx-unprivileged:1.27-alpine", "nginx-unprivileged:1.28-alpine",
                "--metacontroller-version", "v4.10.2");
    }

    /**
     * The ordered scale-down, as docs/examples.md and examples/catset/README.md say: by one pod it is clean; by more,
     * the original removes one pod per sync for the same spec, and from the second pod on check, which sees only the
     * wire, takes it for a child dropped by accident (deletes-children).
     */
    @Test
    void catSetsScaleDownIsCleanByOnePodAndDeletesChildrenByMore() throws Exception {
        assertClean("catset", "my-catset.yaml", "replicas: 3", "replicas: 2");
        Path updated = dir.resolve("two-fewer.yaml");
        Files.writeString(updated, Files.readString(Path.of("examples/catset/my-catset.yaml")).replace("replicas: 3", "replicas: 1"));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int exit = Main.exitCode(() -> CheckCommand.run(List.of("--controller", "examples/catset", "--parent", "examples/catset/my-catset.yaml",
                "--updated-parent", updated.toString(), "--url", server.url("")), Map.of(), new PrintStream(out, true, StandardCharsets.UTF_8)));
        String output = out.toString(StandardCharsets.UTF_8);
        assertEquals(1, exit, output);
        assertEquals(List.of("BREACH deletes-children: sync left out Pod default/nginx-backend-1, which it answered before for the same spec"
                + " (generation 2): Metacontroller deletes it"), output.lines().filter(line -> line.startsWith("BREACH")).toList(), output);
    }

    @Test
    void configMapPropagationIsCleanWithItsRelatedObjects() throws Exception {
        assertClean("configmappropagation", "configmappropagation.yaml", "settings: wanted", "kubernetes.io/metadata.name: three",
                "--related", "examples/configmappropagation/related.yaml");
    }

    @Test
    void servicePerPodIsCleanThroughAScaleDown() throws Exception {
        assertClean("service-per-pod", "my-statefulset.yaml", "replicas: 3", "replicas: 2");
    }

    @Test
    void podNameLabelIsCleanOnAPodOfTheStatefulSet() throws Exception {
        Path pod = dir.resolve("pod.yaml");
        Files.writeString(pod, """
                apiVersion: v1
                kind: Pod
                metadata:
                  name: nginx-0
                  namespace: default
                  labels: {app: nginx}
                  annotations: {pod-name-label: pod-name}
                spec:
                  containers:
                  - {name: nginx, image: nginxinc/nginx-unprivileged:1.27-alpine}
                """);
        String output = run(List.of("--controller", "examples/service-per-pod/pod-name-label-controller.yaml",
                "--parent", pod.toString(), "--url", server.url("")));
        assertTrue(output.startsWith("check: clean ("), output);
    }

    private void assertClean(String example, String parent, String from, String to, String... more) throws Exception {
        Path original = Path.of("examples", example, parent);
        String text = Files.readString(original);
        assertTrue(text.contains(from), from);
        Path updated = dir.resolve(parent);
        Files.writeString(updated, text.replace(from, to));
        List<String> args = new ArrayList<>(List.of("--controller", controller(example),
                "--parent", original.toString(), "--updated-parent", updated.toString(), "--url", server.url("")));
        args.addAll(List.of(more));
        String output = run(args);
        assertTrue(output.startsWith("check: clean ("), output);
    }

    /**
     * The example's directory when it has a CRD, so that check prunes the parent by it as the API server does
     * (issue 37, D3: catset's status lost the Updated condition on a real cluster); its controller.yaml otherwise.
     */
    private static String controller(String example) {
        return Files.exists(Path.of("examples", example, "crd.yaml")) ? "examples/" + example : "examples/" + example + "/controller.yaml";
    }

    /** Given a directory, check reads the parent's CRD from it and reports what the API server would drop from the status. */
    @Test
    void aDirectoryGivesTheControllerAndTheCrdThatPrunesTheParent() throws Exception {
        Path example = dir.resolve("catset");
        Files.createDirectories(example);
        Files.copy(Path.of("examples/catset/controller.yaml"), example.resolve("controller.yaml"));
        Files.writeString(example.resolve("kustomization.yaml"), Files.readString(Path.of("examples/catset/kustomization.yaml")));
        ObjectNode crd = dev.metahook.testkit.Manifests.read(Path.of("examples/catset/crd.yaml"), ObjectNode.class);
        ObjectNode status = (ObjectNode) crd.at("/spec/versions/0/schema/openAPIV3Schema/properties/status/properties");
        assertTrue(status.remove("conditions") != null, "the generated catset CRD declares status.conditions");
        Files.writeString(example.resolve("crd.yaml"), crd.toString());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int exit = Main.exitCode(() -> CheckCommand.run(List.of("--controller", example.toString(), "--parent", "examples/catset/my-catset.yaml",
                "--url", server.url("")), Map.of(), new PrintStream(out, true, StandardCharsets.UTF_8)));
        String output = out.toString(StandardCharsets.UTF_8);
        assertEquals(1, exit, output);
        assertTrue(output.contains("pruned-status") && output.contains("drops status.conditions from the parent's status"), output);
    }

    private static String run(List<String> args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int exit = Main.exitCode(() -> CheckCommand.run(args, Map.of(), new PrintStream(out, true, StandardCharsets.UTF_8)));
        String output = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, exit, output);
        return output;
    }
}
