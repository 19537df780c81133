package dev.metahook.internal.wire;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Set;

/**
 * A DecoratorController sync or finalize request: the target (sent as {@code object}) and its
 * attachments. The controller tree is shared with every other call that carried the same controller:
 * read it, never change it.
 */
public record DecoratorRequest(ObjectNode controller, ObjectNode target, ObjectMap attachments, ObjectMap related,
                               boolean finalizing) {

    private static final Set<String> MAPS = Set.of("attachments", "related");
    private static final Set<String> TREES = Set.of("controller", "object", "finalizing");

    /** Reads a request body in one pass, as {@link CompositeRequest#read} does: the attachments stay bytes until used. */
    public static DecoratorRequest read(byte[] body) {
        return read(body, CallBudget.UNLIMITED);
    }

    /** The same, the attachments and related objects claiming their cost from {@code budget} when built. */
    public static DecoratorRequest read(byte[] body, CallBudget budget) {
        Envelope root = Envelope.read(body, MAPS, TREES, budget);
        if (root.has("parent") && !root.has("object")) {
            throw new MalformedRequestException("/object",
                    "this is a CompositeController or customize request (it has /parent); a DecoratorController hook needs /object");
        }
        ObjectNode controller = Shapes.object(root.tree("controller"), "/controller");
        ObjectNode target = Shapes.kubernetesObject(root.tree("object"), "/object");
        if (!root.has("attachments")) {
            throw new MalformedRequestException("/attachments",
                    "/attachments: required field is missing; decorator sync and finalize requests always carry the attachments");
        }
        ObjectMap related = root.map("related");
        boolean finalizing = Shapes.optionalBoolean(root.tree("finalizing"), "/finalizing");
        return new DecoratorRequest(controller, target, root.map("attachments"), related == null ? ObjectMap.empty() : related,
                finalizing);
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
