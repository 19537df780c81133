package dev.metahook.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The outermost shape every hook request shares: an object with {@code parent} (or a decorator's
 * {@code object}). Checked here for the trees of decorator and customize requests, and for the
 * streamed composite request as its scanner goes by.
 */
final class Envelope {
    private Envelope() {
    }

    static ObjectNode root(JsonNode body) {
        if (!body.isObject()) {
            throw notAnObject(Shapes.describe(body));
        }
        ObjectNode root = (ObjectNode) body;
        requireOwner(root.has("parent"), root.has("object"));
        return root;
    }

    /** A body that is not a JSON object, described ({@code an array, ...}). */
    static MalformedRequestException notAnObject(String described) {
        return new MalformedRequestException("", "not a Metacontroller request: the body is " + described
                + ", expected an object with controller and parent (or object)");
    }

    /** Every hook request carries the object it is about: {@code parent}, or a decorator's {@code object}. */
    static void requireOwner(boolean hasParent, boolean hasObject) {
        if (!hasParent && !hasObject) {
            throw new MalformedRequestException("/parent", "not a Metacontroller request: /parent is missing");
        }
    }
}
