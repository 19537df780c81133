package dev.metahook.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.metahook.controllers.webapp.WebApp;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Manifests reads an object as a type only when it is of that type's apiVersion and kind (issue 37, D1). */
class ManifestsKindTest {
    private static final String NAMESPACE_AND_SECRET = """
            apiVersion: v1
            kind: Namespace
            metadata: {name: team-a}
            ---
            apiVersion: v1
            kind: Secret
            metadata: {name: token, namespace: team-a}
            stringData: {token: x}
            """;

    @TempDir
    Path dir;

    private Path file(String name, String text) throws Exception {
        return Files.writeString(dir.resolve(name), text);
    }

    @Test
    void readAllRefusesADocumentOfAnotherKindNamingTheFileTheDocumentAndWhatItHolds() throws Exception {
        Path file = file("mixed.yaml", NAMESPACE_AND_SECRET);
        var error = assertThrows(IllegalArgumentException.class, () -> Manifests.readAll(file, Secret.class));
        assertEquals(file + ": document 0: holds Namespace v1 team-a, not a Secret (Secret v1)", error.getMessage());
    }

    @Test
    void readRefusesAnObjectOfAnotherKind() throws Exception {
        Path file = file("webapp.yaml", """
                apiVersion: metahook.dev/v1
                kind: WebApp
                metadata: {name: shop, namespace: default}
                spec: {image: nginx}
                """);
        var error = assertThrows(IllegalArgumentException.class, () -> Manifests.read(file, Deployment.class));
        assertEquals(file + ": document 0: holds WebApp metahook.dev/v1 shop, not a Deployment (Deployment apps/v1)",
                error.getMessage());
    }

    @Test
    void theSameKindOfAnotherApiVersionIsRefused() throws Exception {
        Path file = file("old.yaml", "apiVersion: extensions/v1beta1\nkind: Deployment\nmetadata: {name: old}\n");
        var error = assertThrows(IllegalArgumentException.class, () -> Manifests.read(file, Deployment.class));
        assertEquals(file + ": document 0: holds Deployment extensions/v1beta1 old, not a Deployment (Deployment apps/v1)",
                error.getMessage());
    }

    @Test
    void anItemOfAListIsNamedByItsDocumentAndItsIndex() throws Exception {
        Path file = file("list.yaml", """
                apiVersion: v1
                kind: Secret
                metadata: {name: first}
                ---
                apiVersion: v1
                kind: List
                items:
                - {apiVersion: v1, kind: Secret, metadata: {name: second}}
                - {kind: ConfigMap, metadata: {name: third}}
                """);
        var error = assertThrows(IllegalArgumentException.class, () -> Manifests.readAll(file, Secret.class));
        assertEquals(file + ": document 1, item 1: holds ConfigMap (no apiVersion) third, not a Secret (Secret v1)", error.getMessage());
    }

    @Test
    void aCustomResourceIsCheckedByItsAnnotations() {
        var error = assertThrows(IllegalArgumentException.class,
                () -> Manifests.parse("{apiVersion: v1, kind: Namespace, metadata: {name: x}}", WebApp.class));
        assertEquals("YAML text: holds Namespace v1 x, not a WebApp (WebApp " + new WebApp().getApiVersion() + ")", error.getMessage());
        assertEquals("shop", Manifests.parse("{apiVersion: " + new WebApp().getApiVersion() + ", kind: WebApp, metadata: {name: shop}}",
                WebApp.class).getMetadata().getName());
    }

    @Test
    void aTypeWithoutAKindTakesEveryObject() throws Exception {
        Path file = file("mixed.yaml", NAMESPACE_AND_SECRET);
        List<String> kinds = Manifests.readAll(file, GenericKubernetesResource.class).stream().map(GenericKubernetesResource::getKind).toList();
        assertEquals(List.of("Namespace", "Secret"), kinds);
        assertEquals(List.of("token"), Manifests.readAll(file("secret.yaml", NAMESPACE_AND_SECRET.substring(NAMESPACE_AND_SECRET.indexOf("apiVersion: v1\nkind: Secret"))),
                Secret.class).stream().map(secret -> secret.getMetadata().getName()).toList());
    }
}
