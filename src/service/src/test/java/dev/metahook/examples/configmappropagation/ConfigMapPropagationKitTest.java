package dev.metahook.examples.configmappropagation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.metahook.api.Controllers;
import dev.metahook.examples.Examples;
import dev.metahook.testkit.Answer;
import dev.metahook.testkit.HookTester;
import dev.metahook.testkit.Manifests;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The configmappropagation port through the test kit, with the related objects of {@code examples/configmappropagation/related.yaml}. */
class ConfigMapPropagationKitTest {
    private static final HookTester TESTER = HookTester.of(Examples.addTo(Controllers.builder()).build(), "configmappropagation",
            Path.of("examples/configmappropagation/controller.yaml"));
    private static final Path RELATED = Path.of("examples/configmappropagation/related.yaml");

    private static ConfigMapPropagation propagation() {
        return Manifests.read(Path.of("examples/configmappropagation/configmappropagation.yaml"), ConfigMapPropagation.class);
    }

    @Test
    void copiesTheSourceIntoTheSelectedNamespaces() {
        ConfigMap source = new ConfigMapBuilder().withNewMetadata().withName("settings").withNamespace("original").endMetadata()
                .addToData("log-level", "info").build();
        List<Namespace> selected = List.of(namespace("one"), namespace("two"));
        Answer answer = TESTER.sync(propagation()).related(source).related(selected).call();
        assertEquals(List.of("one", "two"), answer.children(ConfigMap.class).stream().map(copy -> copy.getMetadata().getNamespace()).toList());
        assertEquals("info", answer.children(ConfigMap.class).get(0).getData().get("log-level"));
    }

    @Test
    void checkIsCleanWithTheClusterObjects() {
        List<HasMetadata> cluster = List.copyOf(Manifests.readAll(RELATED, GenericKubernetesResource.class));
        var report = TESTER.check(propagation(), null, cluster);
        assertTrue(report.clean(), report.toString());
    }

    private static Namespace namespace(String name) {
        Namespace namespace = new Namespace();
        namespace.setMetadata(new ObjectMetaBuilder().withName(name).addToLabels("settings", "wanted").build());
        return namespace;
    }
}
