package dev.metahook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.testkit.Manifests;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line's reader of manifests and the kit's read a file alike: documents, a List's items, and a kind that merely ends in List. */
class ManifestFilesTest {
    @TempDir
    Path dir;

    private Path file(String name, String text) throws Exception {
        return Files.writeString(dir.resolve(name), text);
    }

    private static List<String> names(List<ObjectNode> objects) {
        return objects.stream().map(object -> object.path("kind").asText() + " " + object.at("/metadata/name").asText()).toList();
    }

    private static void bothRead(Path file, List<String> expected) {
        assertEquals(expected, names(ManifestFiles.all(file.toString())), "cli");
        assertEquals(expected, names(Manifests.readAll(file, ObjectNode.class)), "testkit");
    }

    @Test
    void aCustomResourceOfKindConfigMapListIsOneObject() throws Exception {
        Path parent = file("list.yaml", """
                apiVersion: examples.metacontroller.io/v1alpha1
                kind: ConfigMapList
                metadata: {name: my-config-list, namespace: target-ns}
                spec:
                  sourceLabels: {app: my-app}
                """);
        bothRead(parent, List.of("ConfigMapList my-config-list"));
        assertEquals("my-config-list", ManifestFiles.one(parent.toString()).at("/metadata/name").asText());
    }

    @Test
    void aListOrATypedListIsItsItems() throws Exception {
        String items = """
                items:
                - {apiVersion: v1, kind: ConfigMap, metadata: {name: a, namespace: x}}
                - {apiVersion: v1, kind: ConfigMap, metadata: {name: b, namespace: x}}
                """;
        bothRead(file("list.yaml", "apiVersion: v1\nkind: List\n" + items), List.of("ConfigMap a", "ConfigMap b"));
        bothRead(file("typed.yaml", "apiVersion: v1\nkind: ConfigMapList\nmetadata: {resourceVersion: '7'}\n" + items),
                List.of("ConfigMap a", "ConfigMap b"));
        bothRead(file("documents.yaml", "apiVersion: v1\nkind: Namespace\nmetadata: {name: x}\n---\napiVersion: v1\nkind: List\n" + items),
                List.of("Namespace x", "ConfigMap a", "ConfigMap b"));
    }

    @Test
    void theControllerOfABundleIsFoundAndAnAmbiguousOneRefused() throws Exception {
        String controller = """
                apiVersion: metacontroller.k8s.io/v1alpha1
                kind: DecoratorController
                metadata: {name: %s}
                spec:
                  resources: [{apiVersion: v1, resource: pods}]
                  hooks: {sync: {webhook: {url: http://hooks/sync}}}
                """;
        String service = "apiVersion: v1\nkind: Service\nmetadata: {name: hooks, namespace: hooks}\n";
        Path bundle = file("bundle.yaml", service + "---\n" + controller.formatted("labeller"));
        assertEquals("labeller", ManifestFiles.controller(bundle.toString(), null).name());
        Path two = file("two.yaml", controller.formatted("one") + "---\n" + controller.formatted("two"));
        assertEquals("two", ManifestFiles.controller(two.toString(), "two").name());
        assertTrue(assertThrows(UsageException.class, () -> ManifestFiles.controller(two.toString(), null)).getMessage()
                .endsWith("holds 2 controllers (DecoratorController one, DecoratorController two): name one with --controller-name"));
        assertTrue(assertThrows(UsageException.class, () -> ManifestFiles.controller(two.toString(), "three")).getMessage()
                .endsWith("holds no CompositeController or DecoratorController named three; it holds DecoratorController one,"
                        + " DecoratorController two"));
        Path none = file("none.yaml", service);
        assertTrue(assertThrows(UsageException.class, () -> ManifestFiles.controller(none.toString(), null)).getMessage()
                .endsWith("holds no CompositeController or DecoratorController of metacontroller.k8s.io; it holds Service hooks"));
    }
}
