package dev.metahook.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** The outermost shape every hook request shares. */
final class Envelope {
    private Envelope() {
    }

    static ObjectNode root(JsonNode body) {
        if (!body.isObject()) {
            throw new MalformedRequestException("", "not a Metacontroller request: the body is " + Shapes.describe(body)
                    + ", expected an object with controller and parent (or object)");
        }
        ObjectNode root = (ObjectNode) body;
        if (!root.has("parent") && !root.has("object")) {
            throw new MalformedRequestException("/parent", "not a Metacontroller request: /parent is missing");
        }
        return root;
    }
}
