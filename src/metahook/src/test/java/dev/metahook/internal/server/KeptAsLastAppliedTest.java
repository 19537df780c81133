package dev.metahook.internal.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.api.Context;
import dev.metahook.api.Controllers;
import dev.metahook.api.Result;
import dev.metahook.testing.Requests;
import dev.metahook.testing.TestServer;
import dev.metahook.testing.Widget;
import dev.metahook.internal.wire.CanonicalJson;
import dev.metahook.internal.wire.Json;
import dev.metahook.internal.wire.LastAppliedConfiguration;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import java.nio.charset.StandardCharsets;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A child the controller answers from {@code lastApplied} (or builds equal to it) is its last-applied
 * JSON with only the controller's changes: nulls, key set and numbers its typed model cannot hold
 * stay, while every change the controller makes gets through.
 */
class KeptAsLastAppliedTest {
    /** As a sync wrote it: the claim template's null on purpose, and a null the API server does not store. */
    private static final String APPLIED = """
            {"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"labels":{"controller-uid":"%s"},"name":"store","namespace":"default"},\
            "spec":{"minReadySeconds":null,"replicas":2,"selector":{"matchLabels":{"app":"store"}},"serviceName":"store",\
            "template":{"metadata":{"labels":{"app":"store"}},"spec":{"containers":[{"image":"db:1","name":"db"}]}},\
            "volumeClaimTemplates":[{"apiVersion":"v1","kind":"PersistentVolumeClaim","metadata":{"creationTimestamp":null,"name":"data"},\
            "spec":{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"1Gi"}},"volumeMode":"Filesystem"},\
            "status":{"phase":"Pending"}}]}}""".formatted(Requests.UID);
    @RegisterExtension
    static final TestServer server = TestServer.of(() -> Controllers.builder()
                .composite("keep", Widget.class, (w, c) -> answer(c, set -> set))
                .composite("scale", Widget.class, (w, c) -> answer(c, set -> {
                    set.getSpec().setReplicas(0);
                    return set;
                }))
                .composite("copy", Widget.class, (w, c) -> answer(c, set -> new StatefulSetBuilder(set)
                        .editSpec().withReplicas(5).endSpec().build()))
                .composite("add-claim", Widget.class, (w, c) -> answer(c, set -> {
                    PersistentVolumeClaim logs = new PersistentVolumeClaim();
                    logs.setMetadata(new ObjectMeta());
                    logs.getMetadata().setName("logs");
                    set.getSpec().getVolumeClaimTemplates().add(0, logs);
                    return set;
                }))
                .composite("drop-claims", Widget.class, (w, c) -> answer(c, set -> {
                    set.getSpec().getVolumeClaimTemplates().clear();
                    return set;
                }))
                .composite("keeping-observed", Widget.class, (w, c) -> Result.keepingObserved())
                .composite("fresh", Widget.class, (w, c) -> Result.of(fresh()).deletingUnlisted())
                .build());

    private static Result<Object> answer(Context context, UnaryOperator<StatefulSet> change) {
        return Result.of(change.apply(context.children().lastApplied(StatefulSet.class, "store").orElseThrow())).deletingUnlisted();
    }

    /** The same StatefulSet built from scratch by a typed controller (which cannot write a null). */
    private static StatefulSet fresh() {
        try {
            return Json.convert(Json.parse(APPLIED.getBytes(StandardCharsets.UTF_8)), StatefulSet.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The StatefulSet as the API server stores it: the embedded ObjectMeta nulls, no null minReadySeconds. */
    private static ObjectNode observed() {
        ObjectNode stored = (ObjectNode) Json.parse(APPLIED.getBytes(StandardCharsets.UTF_8));
        ObjectNode spec = stored.withObjectProperty("spec");
        spec.remove("minReadySeconds");
        spec.withObjectProperty("template").withObjectProperty("metadata").putNull("creationTimestamp");
        ObjectNode metadata = stored.withObjectProperty("metadata");
        metadata.putObject("annotations").put(LastAppliedConfiguration.ANNOTATION, APPLIED);
        metadata.put("uid", "5d1b2c3a-0000-4000-8000-0000000000aa").put("resourceVersion", "5000").put("generation", 1)
                .put("creationTimestamp", "2026-11-29T10:00:01Z");
        metadata.putArray("ownerReferences").addObject().put("apiVersion", "test.metahook.dev/v1").put("kind", "Widget")
                .put("name", "hello").put("uid", Requests.UID).put("controller", true).put("blockOwnerDeletion", true);
        stored.putObject("status").put("replicas", 2);
        return stored;
    }

    private static ObjectNode request() {
        ObjectNode controller = Requests.controller(true);
        ArrayNode children = controller.withObjectProperty("spec").putArray("childResources");
        children.addObject().put("apiVersion", "apps/v1").put("resource", "statefulsets");
        ObjectNode request = Json.object();
        request.set("controller", controller);
        request.set("parent", Requests.widget("hello", 1, "hi"));
        request.putObject("children").putObject("StatefulSet.apps/v1").set("store", observed());
        request.putObject("related");
        request.put("finalizing", false);
        return request;
    }

    private static String answered(String controller) {
        byte[] body = server.post("/" + controller + "/sync", CanonicalJson.bytes(request())).statusCode(200).extract().asByteArray();
        JsonNode children = Json.parse(body).path("children");
        assertEquals(1, children.size(), children.toString());
        return CanonicalJson.string(children.get(0));
    }

    /** The annotation with the null the API server does not store taken out: what a kept child answers. */
    private static String appliedAsStored() {
        return APPLIED.replace("\"minReadySeconds\":null,", "");
    }

    @Test
    void keepingObservedAnswersTheAnnotationItself() {
        assertEquals(APPLIED, answered("keeping-observed"));
    }

    @Test
    void aChildKeptUnchangedIsItsAnnotationWithTheNullsTheServerStores() {
        assertEquals(appliedAsStored(), answered("keep"));
    }

    @Test
    void aChildBuiltFromScratchEqualToItsAnnotationIsTheAnnotation() {
        assertEquals(appliedAsStored(), answered("fresh"));
    }

    @Test
    void onlyTheControllersChangeDiffers() {
        assertEquals(appliedAsStored().replace("\"replicas\":2", "\"replicas\":0"), answered("scale"));
    }

    @Test
    void aCopyMadeWithABuilderIsWrittenOverTheAnnotationToo() {
        assertEquals(appliedAsStored().replace("\"replicas\":2", "\"replicas\":5"), answered("copy"));
    }

    @Test
    void aListTheControllerChangesGetsThroughAndKeepsTheNullsOfTheItemsItKept() {
        assertEquals(appliedAsStored().replace("\"volumeClaimTemplates\":[",
                "\"volumeClaimTemplates\":[{\"apiVersion\":\"v1\",\"kind\":\"PersistentVolumeClaim\",\"metadata\":{\"name\":\"logs\"}},"), answered("add-claim"));
    }

    @Test
    void aListTheControllerEmptiesIsEmpty() {
        String answer = answered("drop-claims");
        assertFalse(answer.contains("creationTimestamp"), answer);
        assertFalse(answer.contains("\"name\":\"data\""), answer);
    }
}
