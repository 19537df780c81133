package dev.metahook.internal.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.testing.Fixtures;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Metacontroller's request and response bodies read into the wire model and written back unchanged. */
class WireModelTest {

    @ParameterizedTest
    @ValueSource(strings = {"metacontroller/01-composite-sync-v1.request.json", "metacontroller/02-composite-finalize-v1.request.json",
            "captured/v1.5.14-webapp-sync-observed.request.json", "captured/v1.5.14-database-finalize-drain.request.json"})
    void compositeRequestsRoundTripThroughTheStreamingDecoder(String fixture) {
        JsonNode body = Fixtures.json(fixture);
        assertEquals(body, CompositeRequest.read(Fixtures.bytes(fixture)).toJson());
    }

    @Test
    void typedObjectsLeaveManagedFieldsUnreadButWriteThemWhenSet() throws Exception {
        CompositeRequest request = CompositeRequest.read(Fixtures.bytes("captured/v1.5.14-webapp-sync-observed.request.json"));
        ObservedObject observed = request.children().entries().get(0);
        assertTrue(observed.tree().at("/metadata/managedFields").size() > 0, "the request carries managedFields");
        HasMetadata typed = observed.read(GenericKubernetesResource.class);
        assertTrue(typed.getMetadata().getManagedFields().isEmpty());
        assertEquals(observed.tree().at("/metadata/uid").asText(), typed.getMetadata().getUid());
        ObjectMeta metadata = new ObjectMeta();
        metadata.setManagedFields(List.of(new ManagedFieldsEntry(null, null, null, "metahook", null, null, null)));
        assertEquals("metahook", Json.tree(metadata).at("/managedFields/0/manager").asText());
    }

    @Test
    void decoratorRequestRoundTrips() {
        JsonNode body = Fixtures.json("metacontroller/03-decorator-sync-v1.request.json");
        assertEquals(body, DecoratorRequest.read(Fixtures.bytes("metacontroller/03-decorator-sync-v1.request.json")).toJson());
    }

    @Test
    void customizeRequestRoundTrips() {
        JsonNode body = Fixtures.json("metacontroller/04-customize-v1.request.json");
        assertEquals(body, CustomizeRequest.read(Fixtures.bytes("metacontroller/04-customize-v1.request.json")).toJson());
    }

    @Test
    void sampleResponsesPassMetacontrollersStrictDecoding() {
        assertEquals(List.of(), ResponseCheck.composite(Fixtures.json("metacontroller/01-composite-sync-v1.response.json"), true));
        assertEquals(List.of(), ResponseCheck.composite(Fixtures.json("metacontroller/02-composite-finalize-v1.response.json"), true));
        assertEquals(List.of(), ResponseCheck.decorator(Fixtures.json("metacontroller/03-decorator-sync-v1.response.json"), true));
        assertEquals(List.of(), ResponseCheck.customize(Fixtures.json("metacontroller/04-customize-v1.response.json"), true));
    }

    @Test
    void strictDecodingRefusesAMisspelledFieldThatLooseDecodingIgnores() {
        ObjectNode response = (ObjectNode) Fixtures.json("metacontroller/01-composite-sync-v1.response.json");
        response.set("Children", response.remove("children"));
        assertEquals(List.of("/Children: unknown field (strict decoding refuses it)"), ResponseCheck.composite(response, true));
        assertEquals(List.of(), ResponseCheck.composite(response, false));
    }

    @Test
    void decodingRefusesNullChildrenAndChildrenWithoutKind() {
        JsonNode response = Json.parse("{\"children\":[null,{\"apiVersion\":\"v1\"}]}".getBytes());
        assertEquals(List.of("/children/0: expected an object, got null", "/children/1: Object 'Kind' is missing"),
                ResponseCheck.composite(response, false));
    }

    @Test
    void customizeRulesAreDecodedStrictly() {
        JsonNode response = Json.parse(("{\"relatedResources\":[{\"apiVersion\":\"v1\",\"resource\":\"secrets\",\"names\":[\"a\"],"
                + "\"labelSelector\":{\"matchlabels\":{}}}]}").getBytes());
        assertEquals(List.of("/relatedResources/0/labelSelector/matchlabels: unknown field (strict decoding refuses it)"),
                ResponseCheck.customize(response, true), "the decoder; names with a selector is contract.AnswerRules.relatedRule's");
    }

    @Test
    void groupKeysSplitAtTheFirstDot() {
        assertEquals(new GroupKey("Deployment", "apps/v1"), GroupKey.parse("Deployment.apps/v1"));
        assertEquals(new GroupKey("CatSet", "ctl.enisoc.com/v1"), GroupKey.parse("CatSet.ctl.enisoc.com/v1"));
        assertEquals("", GroupKey.parse("Service.v1").group());
        assertEquals(null, GroupKey.parse("Service"));
        assertEquals(null, GroupKey.parse(".v1"));
    }

    @Test
    void v1KeysAreRelativeToTheParentsScope() {
        assertEquals("web", HookVersion.V1.key(true, "shop", "web"));
        assertEquals("shop/web", HookVersion.V1.key(false, "shop", "web"));
        assertEquals("admin", HookVersion.V1.key(false, null, "admin"));
    }

    @Test
    void v2KeysQualifyEveryNamespacedObject() {
        assertEquals("shop/web", HookVersion.V2.key(true, "shop", "web"));
        assertEquals("shop/web", HookVersion.V2.key(false, "shop", "web"));
        assertEquals("admin", HookVersion.V2.key(false, null, "admin"));
    }

    @Test
    void theControllerDeclaresTheVersionPerHook() {
        JsonNode controller = Json.parse("{\"spec\":{\"hooks\":{\"sync\":{\"version\":\"v2\"},\"finalize\":{}}}}".getBytes());
        assertEquals(HookVersion.V2, HookVersion.declared(controller, "sync"));
        assertEquals(HookVersion.V1, HookVersion.declared(controller, "finalize"));
    }

    @Test
    void objectMapsKeepEveryDeclaredGroupEvenWhenEmpty() {
        ObjectNode deployment = object("Deployment", "apps/v1", "shop", "web");
        ObjectMap v2 = ObjectMap.of(List.of(deployment), List.of(new GroupKey("Service", "v1")), HookVersion.V2, true);
        assertEquals(Json.parse(("{\"Deployment.apps/v1\":{\"shop/web\":" + deployment + "},\"Service.v1\":{}}").getBytes()), v2.toJson());
        ObjectMap v1 = ObjectMap.of(List.of(deployment), List.of(), HookVersion.V1, true);
        assertTrue(v1.entries(new GroupKey("Deployment", "apps/v1")).containsKey("web"));
    }

    @Test
    void objectMapsRefuseObjectsFiledUnderAnotherGroup() {
        String map = "{\"Service.v1\":{\"web\":" + object("Deployment", "apps/v1", "shop", "web") + "}}";
        MalformedRequestException error = assertThrows(MalformedRequestException.class, () -> children(map));
        assertEquals("/children/Service.v1/web", error.pointer());
    }

    @Test
    void anEmptyGroupIsAnEmptyMap() {
        ObjectMap map = children("{\"Pod.v1\":{}}");
        assertTrue(map.isEmpty());
        assertFalse(map.groupKeys().isEmpty());
    }

    /** An object map read from text as a request's children are. */
    private static ObjectMap children(String json) {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        return ObjectMap.build(ObjectMap.scan(new JsonScanner(body), 0, "/children", CallBudget.UNLIMITED), body, CallBudget.UNLIMITED);
    }

    private static ObjectNode object(String kind, String apiVersion, String namespace, String name) {
        ObjectNode object = Json.object().put("apiVersion", apiVersion).put("kind", kind);
        object.putObject("metadata").put("name", name).put("namespace", namespace);
        return object;
    }
}
