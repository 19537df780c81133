package dev.metahook.testing;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.internal.wire.CanonicalJson;
import dev.metahook.internal.wire.Json;
import dev.metahook.internal.wire.LastAppliedConfiguration;
import java.util.List;

/** Request bodies as Metacontroller would send them for Widgets, with full observed children. */
public final class Requests {
    public static final String UID = "6f1c1d2e-7a8b-4c9d-8e0f-123456789abc";

    private Requests() {
    }

    public static ObjectNode controller(boolean generateSelector) {
        ObjectNode controller = Json.object();
        controller.put("apiVersion", "metacontroller.k8s.io/v1alpha1").put("kind", "CompositeController");
        controller.putObject("metadata").put("name", "widget-controller");
        ObjectNode spec = controller.putObject("spec");
        spec.put("generateSelector", generateSelector);
        spec.putObject("parentResource").put("apiVersion", "test.metahook.dev/v1").put("resource", "widgets");
        spec.putArray("childResources").addObject().put("apiVersion", "v1").put("resource", "configmaps")
                .putObject("updateStrategy").put("method", "InPlace");
        ObjectNode hooks = spec.putObject("hooks");
        hooks.putObject("sync").put("version", "v1").putObject("webhook").put("url", "http://metahook.metahook-system/widget/sync");
        hooks.putObject("finalize").put("version", "v1").putObject("webhook").put("url", "http://metahook.metahook-system/widget/finalize");
        return controller;
    }

    public static ObjectNode widget(String name, int size, String message) {
        ObjectNode widget = Json.object();
        widget.put("apiVersion", "test.metahook.dev/v1").put("kind", "Widget");
        ObjectNode metadata = widget.putObject("metadata");
        metadata.put("name", name).put("namespace", "default").put("uid", UID).put("generation", 2)
                .put("resourceVersion", "4711").put("creationTimestamp", "2026-11-29T10:00:00Z");
        metadata.putArray("finalizers").add("metacontroller.io/compositecontroller-widget-controller");
        widget.putObject("spec").put("size", size).put("message", message);
        return widget;
    }

    /** The ConfigMap the Widget controller wants, as Metacontroller created it and now observes it. */
    public static ObjectNode observedConfigMap(String name, int size, String message) {
        ObjectNode applied = Json.object();
        applied.put("apiVersion", "v1").put("kind", "ConfigMap");
        ObjectNode metadata = applied.putObject("metadata");
        metadata.put("name", name).put("namespace", "default");
        metadata.putObject("labels").put("app.kubernetes.io/instance", name).put("app.kubernetes.io/name", "widget")
                .put("controller-uid", UID);
        applied.putObject("data").put("message", message).put("size", Integer.toString(size));
        ObjectNode observed = applied.deepCopy();
        ObjectNode observedMetadata = observed.withObjectProperty("metadata");
        observedMetadata.putObject("annotations")
                .put(LastAppliedConfiguration.ANNOTATION, CanonicalJson.string(applied));
        observedMetadata.put("uid", "0b9f4a3c-0000-4000-8000-00000000c0de").put("resourceVersion", "4712")
                .put("creationTimestamp", "2026-11-29T10:00:01Z");
        observedMetadata.putArray("ownerReferences").addObject().put("apiVersion", "test.metahook.dev/v1")
                .put("kind", "Widget").put("name", name).put("uid", UID).put("controller", true).put("blockOwnerDeletion", true);
        observedMetadata.putArray("managedFields").addObject().put("manager", "metacontroller").put("operation", "Update");
        return observed;
    }

    public static ObjectNode sync(ObjectNode parent, List<ObjectNode> children, boolean finalizing) {
        ObjectNode request = Json.object();
        request.set("controller", controller(true));
        request.set("parent", parent);
        ObjectNode groups = request.putObject("children");
        groups.putObject("ConfigMap.v1");
        children.forEach(child -> groups.withObjectProperty(child.path("kind").asText() + "." + child.path("apiVersion").asText())
                .set(child.path("metadata").path("name").asText(), child));
        request.putObject("related");
        request.put("finalizing", finalizing);
        return request;
    }

    /** A customize request as Metacontroller sends it: the controller and the parent, nothing else. */
    public static ObjectNode customize(ObjectNode controller, ObjectNode parent) {
        ObjectNode request = Json.object();
        request.set("controller", controller);
        request.set("parent", parent);
        return request;
    }

    public static byte[] bytes(ObjectNode request) {
        return CanonicalJson.bytes(request);
    }
}
