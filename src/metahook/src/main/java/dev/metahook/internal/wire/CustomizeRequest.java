package dev.metahook.internal.wire;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Set;

/** A customize request: the controller object and the parent (called {@code parent} for decorators too). */
public record CustomizeRequest(ObjectNode controller, ObjectNode parent) {

    private static final Set<String> TREES = Set.of("controller", "parent");

    /** Reads a request body in one pass of the byte scanner; the controller tree is shared: read it, never change it. */
    public static CustomizeRequest read(byte[] body) {
        return read(body, CallBudget.UNLIMITED);
    }

    /** The same, its work admitted by {@code budget} before its trees are built. */
    public static CustomizeRequest read(byte[] body, CallBudget budget) {
        Envelope root = Envelope.read(body, Set.of(), TREES, budget);
        ObjectNode controller = Shapes.object(root.tree("controller"), "/controller");
        ObjectNode parent = Shapes.kubernetesObject(root.tree("parent"), "/parent");
        return new CustomizeRequest(controller, parent);
    }

    public ObjectNode toJson() {
        ObjectNode out = Json.object();
        out.set("controller", controller);
        out.set("parent", parent);
        return out;
    }
}
