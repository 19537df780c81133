package dev.metahook.wire;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.function.Consumer;

/**
 * A CompositeController sync or finalize request: the controller object, the parent, its observed
 * children, the related objects, and whether this is a finalize call. The controller tree read from a
 * body is shared with every other call that carried the same controller: read it, never change it.
 */
public record CompositeRequest(ObjectNode controller, ObjectNode parent, ObjectMap children, ObjectMap related,
                               boolean finalizing) {
    private static final SharedTrees CONTROLLERS = new SharedTrees();

    /**
     * Reads a request body in one pass: the controller and the parent become trees, the children and
     * related objects stay bytes until used, so a request with a thousand children costs little more
     * than its envelope. The whole body is checked to be JSON all the same.
     */
    public static CompositeRequest read(byte[] body) {
        JsonScanner scanner = new JsonScanner(body);
        int start = scanner.skipWhitespace(0);
        if (scanner.atEnd(start)) {
            throw new MalformedRequestException("", "request body is empty");
        }
        if (scanner.at(start) != '{') {
            scanner.valueEnd(start);
            throw Envelope.notAnObject(scanner.describe(start));
        }
        Fields fields = new Fields(scanner);
        int end = scanner.skipWhitespace(scanner.fields(start, fields));
        if (!scanner.atEnd(end)) {
            throw new MalformedRequestException("", "request body is not valid JSON: more data after the first value");
        }
        Envelope.requireOwner(fields.parent != null, fields.hasObject);
        return build(fields.controller, fields.parent, fields.children, fields.related, fields.finalizing, fields.hasObject);
    }

    /** The envelope's fields as they go by; a repeated field counts once, the last time. */
    private static final class Fields implements JsonScanner.FieldVisitor {
        private final JsonScanner scanner;
        private JsonNode controller;
        private JsonNode parent;
        private JsonNode finalizing;
        private ObjectMap children;
        private ObjectMap related = ObjectMap.empty();
        private boolean hasObject;

        Fields(JsonScanner scanner) {
            this.scanner = scanner;
        }

        @Override
        public int field(String name, int start) {
            return switch (name) {
                case "children" -> ObjectMap.scan(scanner, start, "/children", map -> children = map);
                case "related" -> ObjectMap.scan(scanner, start, "/related", map -> related = map);
                case "controller" -> controller(start);
                case "parent" -> tree(start, node -> parent = node);
                case "finalizing" -> tree(start, node -> finalizing = node);
                default -> {
                    hasObject |= name.equals("object");
                    yield scanner.valueEnd(start);
                }
            };
        }

        /** The controller object is the same bytes on every call of a controller: parsed once, shared, read only. */
        private int controller(int start) {
            int end = scanner.valueEnd(start);
            try {
                controller = CONTROLLERS.tree(scanner.body(), start, end);
            } catch (IOException e) {
                throw new MalformedRequestException("/controller", "request body is not valid JSON: " + e.getMessage());
            }
            return end;
        }

        /**
         * Scanned first, so the parent's bytes meet the same rules as the children's (Jackson lets
         * overlong UTF-8 and CESU-8 surrogates through), then parsed by Jackson.
         */
        private int tree(int start, Consumer<JsonNode> field) {
            int end = scanner.valueEnd(start);
            try (JsonParser parser = Json.mapper().createParser(scanner.body(), start, end - start)) {
                field.accept(Json.mapper().readTree(parser));
                return end;
            } catch (JsonProcessingException e) {
                throw new MalformedRequestException("", "request body is not valid JSON: " + e.getOriginalMessage());
            } catch (IOException e) {
                throw new MalformedRequestException("", "request body is not valid JSON: " + e.getMessage());
            }
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
