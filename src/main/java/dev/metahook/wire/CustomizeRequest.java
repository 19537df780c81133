package dev.metahook.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** A customize request: the controller object and the parent (called {@code parent} for decorators too). */
public record CustomizeRequest(ObjectNode controller, ObjectNode parent) {

    public static CustomizeRequest read(JsonNode body) {
        ObjectNode root = Envelope.root(body);
        ObjectNode controller = Shapes.object(root.get("controller"), "/controller");
        ObjectNode parent = Shapes.kubernetesObject(root.get("parent"), "/parent");
        return new CustomizeRequest(controller, parent);
    }

    public ObjectNode toJson() {
        ObjectNode out = Json.object();
        out.set("controller", controller);
        out.set("parent", parent);
        return out;
    }
}
