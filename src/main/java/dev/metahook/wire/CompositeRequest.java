package dev.metahook.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A CompositeController sync or finalize request: the controller object, the parent, its observed
 * children, the related objects, and whether this is a finalize call.
 */
public record CompositeRequest(ObjectNode controller, ObjectNode parent, ObjectMap children, ObjectMap related,
                               boolean finalizing) {

    /** Reads and checks a request body already parsed as JSON. */
    public static CompositeRequest read(JsonNode body) {
        ObjectNode root = Envelope.root(body);
        if (root.has("object") && !root.has("parent")) {
            throw new MalformedRequestException("/parent",
                    "this is a DecoratorController request (it has /object); a CompositeController hook needs /parent");
        }
        ObjectNode controller = Shapes.object(root.get("controller"), "/controller");
        ObjectNode parent = Shapes.kubernetesObject(root.get("parent"), "/parent");
        if (!root.has("children")) {
            throw new MalformedRequestException("/children",
                    "/children: required field is missing; sync and finalize requests always carry the observed children");
        }
        ObjectMap children = ObjectMap.read(root.get("children"), "/children");
        ObjectMap related = ObjectMap.read(root.get("related"), "/related");
        boolean finalizing = Shapes.optionalBoolean(root.get("finalizing"), "/finalizing");
        return new CompositeRequest(controller, parent, children, related, finalizing);
    }

    /** The request as Metacontroller writes it. */
    public ObjectNode toJson() {
        ObjectNode out = Json.object();
        out.set("controller", controller);
        out.set("parent", parent);
        out.set("children", children.toJson());
        out.set("related", related.toJson());
        out.put("finalizing", finalizing);
        return out;
    }
}
