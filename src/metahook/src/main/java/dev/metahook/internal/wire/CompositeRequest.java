package dev.metahook.internal.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Set;

/**
 * A CompositeController sync or finalize request: the controller object, the parent, its observed
 * children, the related objects, and whether this is a finalize call. The controller tree read from a
 * body is shared with every other call that carried the same controller: read it, never change it.
 */
public record CompositeRequest(ObjectNode controller, ObjectNode parent, ObjectMap children, ObjectMap related,
                               boolean finalizing) {
    private static final Set<String> MAPS = Set.of("children", "related");
    private static final Set<String> TREES = Set.of("controller", "parent", "finalizing");

    /**
     * Reads a request body in one pass: the controller and the parent become trees, the children and
     * related objects stay bytes until used, so a request with a thousand children costs little more
     * than its envelope. The whole body is checked to be JSON all the same.
     */
    public static CompositeRequest read(byte[] body) {
        return read(body, CallBudget.UNLIMITED);
    }

    /** The same, the children and related objects claiming their cost from {@code budget} when built. */
    public static CompositeRequest read(byte[] body, CallBudget budget) {
        Envelope fields = Envelope.read(body, MAPS, TREES, budget);
        ObjectMap related = fields.map("related");
        return build(fields.tree("controller"), fields.tree("parent"), fields.map("children"),
                related == null ? ObjectMap.empty() : related, fields.tree("finalizing"), fields.has("object"));
    }

    private static CompositeRequest build(JsonNode controller, JsonNode parent, ObjectMap children, ObjectMap related,
                                          JsonNode finalizing, boolean hasObject) {
        if (hasObject && parent == null) {
            throw new MalformedRequestException("/parent",
                    "this is a DecoratorController request (it has /object); a CompositeController hook needs /parent");
        }
        ObjectNode controllerObject = Shapes.object(controller, "/controller");
        ObjectNode parentObject = Shapes.kubernetesObject(parent, "/parent");
        if (children == null) {
            throw new MalformedRequestException("/children",
                    "/children: required field is missing; sync and finalize requests always carry the observed children");
        }
        return new CompositeRequest(controllerObject, parentObject, children, related,
                Shapes.optionalBoolean(finalizing, "/finalizing"));
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
