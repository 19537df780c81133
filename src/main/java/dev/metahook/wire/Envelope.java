package dev.metahook.wire;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The outermost shape every hook request shares, read from the body in one pass of the byte scanner:
 * the fields a hook reads as trees are parsed (the controller object once for all calls that carry
 * the same bytes), its object maps stay bytes until used, every other field is only checked to be
 * JSON. A repeated field counts once, the last time.
 */
final class Envelope {
    private static final SharedTrees CONTROLLERS = new SharedTrees();

    private final Set<String> present = new HashSet<>();
    private final Map<String, JsonNode> trees = new HashMap<>();
    private final Map<String, ObjectMap> maps = new HashMap<>();

    private Envelope() {
    }

    /**
     * Reads a body whose fields named in {@code maps} are object maps and those in {@code trees}
     * trees, the objects of the maps claiming their heap from {@code heap} when built; refuses a body that is not one JSON object, or has neither {@code parent} nor {@code object}.
     */
    static Envelope read(byte[] body, Set<String> maps, Set<String> trees, ObservedHeap heap) {
        JsonScanner scanner = new JsonScanner(body);
        int start = scanner.skipWhitespace(0);
        if (scanner.atEnd(start)) {
            throw new MalformedRequestException("", "request body is empty");
        }
        if (scanner.at(start) != '{') {
            scanner.valueEnd(start);
            throw notAnObject(scanner.describe(start));
        }
        Envelope envelope = new Envelope();
        int end = scanner.skipWhitespace(scanner.fields(start, (name, valueStart) -> {
            envelope.present.add(name);
            if (maps.contains(name)) {
                return ObjectMap.scan(scanner, valueStart, "/" + name, heap, map -> envelope.maps.put(name, map));
            }
            if (trees.contains(name)) {
                return name.equals("controller") ? envelope.controller(scanner, valueStart) : envelope.tree(scanner, name, valueStart);
            }
            return scanner.valueEnd(valueStart);
        }));
        if (!scanner.atEnd(end)) {
            throw new MalformedRequestException("", "request body is not valid JSON: more data after the first value");
        }
        requireOwner(envelope.has("parent"), envelope.has("object"));
        return envelope;
    }

    boolean has(String field) {
        return present.contains(field);
    }

    /** A tree field, null when absent ({@code NullNode} when null). */
    JsonNode tree(String field) {
        return trees.get(field);
    }

    /** An object map field, null when absent; empty when null. */
    ObjectMap map(String field) {
        return maps.get(field);
    }

    /**
     * The controller object is the same bytes on every call of a controller: parsed once, shared, read
     * only; bytes equal to a controller checked and parsed before are not scanned again (an object ends
     * where its text says, so no more bytes belong to it).
     */
    private int controller(JsonScanner scanner, int start) {
        SharedTrees.Kept known = scanner.at(start) == '{' ? CONTROLLERS.at(scanner.body(), start) : null;
        if (known != null) {
            trees.put("controller", known.tree());
            return start + known.text().length;
        }
        int end = scanner.valueEnd(start);
        try {
            trees.put("controller", CONTROLLERS.tree(scanner.body(), start, end));
        } catch (IOException e) {
            throw new MalformedRequestException("/controller", "request body is not valid JSON: " + e.getMessage());
        }
        return end;
    }

    /**
     * Scanned first, so the field's bytes meet the same rules as the children's (Jackson lets overlong
     * UTF-8 and CESU-8 surrogates through), then parsed by Jackson.
     */
    private int tree(JsonScanner scanner, String field, int start) {
        int end = scanner.valueEnd(start);
        try (JsonParser parser = Json.mapper().createParser(scanner.body(), start, end - start)) {
            trees.put(field, Json.mapper().readTree(parser));
            return end;
        } catch (JsonProcessingException e) {
            throw new MalformedRequestException("", "request body is not valid JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new MalformedRequestException("", "request body is not valid JSON: " + e.getMessage());
        }
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
