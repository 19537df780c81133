package dev.metahook.wire;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;

/**
 * A CompositeController sync or finalize request: the controller object, the parent, its observed
 * children, the related objects, and whether this is a finalize call.
 */
public record CompositeRequest(ObjectNode controller, ObjectNode parent, ObjectMap children, ObjectMap related,
                               boolean finalizing) {

    /**
     * Reads a request body as it streams by: the controller and the parent become trees, the children
     * and related objects stay bytes until used, so a request with a thousand children costs little
     * more than its envelope.
     */
    public static CompositeRequest read(byte[] body) {
        if (body.length == 0) {
            throw new MalformedRequestException("", "request body is empty");
        }
        try (JsonParser parser = Json.mapper().createParser(body)) {
            JsonToken first = parser.nextToken();
            if (first != JsonToken.START_OBJECT) {
                throw new MalformedRequestException("", first == null ? "request body is empty" : "not a Metacontroller request: the body is "
                        + Shapes.describe(first) + ", expected an object with controller and parent (or object)");
            }
            JsonNode controller = null;
            JsonNode parent = null;
            JsonNode finalizing = null;
            ObjectMap children = null;
            ObjectMap related = ObjectMap.empty();
            boolean hasObject = false;
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                parser.nextToken();
                switch (field) {
                    case "controller" -> controller = Json.mapper().readTree(parser);
                    case "parent" -> parent = Json.mapper().readTree(parser);
                    case "finalizing" -> finalizing = Json.mapper().readTree(parser);
                    case "children" -> children = ObjectMap.stream(parser, body, "/children");
                    case "related" -> related = ObjectMap.stream(parser, body, "/related");
                    default -> {
                        hasObject |= field.equals("object");
                        parser.skipChildren();
                    }
                }
            }
            if (parser.nextToken() != null) {
                throw new MalformedRequestException("", "request body is not valid JSON: more data after the first value");
            }
            if (parent == null && !hasObject) {
                throw new MalformedRequestException("/parent", "not a Metacontroller request: /parent is missing");
            }
            return build(controller, parent, children, related, finalizing, hasObject);
        } catch (JsonProcessingException e) {
            throw new MalformedRequestException("", "request body is not valid JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new MalformedRequestException("", "request body could not be read: " + e.getMessage());
        }
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
