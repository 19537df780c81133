package dev.metahook.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A DecoratorController sync or finalize request: the target (sent as {@code object}) and its
 * attachments.
 */
public record DecoratorRequest(ObjectNode controller, ObjectNode target, ObjectMap attachments, ObjectMap related,
                               boolean finalizing) {

    public static DecoratorRequest read(JsonNode body) {
        ObjectNode root = Envelope.root(body);
        if (root.has("parent") && !root.has("object")) {
            throw new MalformedRequestException("/object",
                    "this is a CompositeController or customize request (it has /parent); a DecoratorController hook needs /object");
        }
        ObjectNode controller = Shapes.object(root.get("controller"), "/controller");
        ObjectNode target = Shapes.kubernetesObject(root.get("object"), "/object");
        if (!root.has("attachments")) {
            throw new MalformedRequestException("/attachments",
                    "/attachments: required field is missing; decorator sync and finalize requests always carry the attachments");
        }
        ObjectMap attachments = ObjectMap.read(root.get("attachments"), "/attachments");
        ObjectMap related = ObjectMap.read(root.get("related"), "/related");
        boolean finalizing = Shapes.optionalBoolean(root.get("finalizing"), "/finalizing");
        return new DecoratorRequest(controller, target, attachments, related, finalizing);
    }

    public ObjectNode toJson() {
        ObjectNode out = Json.object();
        out.set("controller", controller);
        out.set("object", target);
        out.set("attachments", attachments.toJson());
        out.set("related", related.toJson());
        out.put("finalizing", finalizing);
        return out;
    }
}
