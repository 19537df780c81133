package dev.metahook.internal.wire;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
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
     * trees; refuses a body that is not one JSON object, or has neither {@code parent} nor {@code object}.
     * The whole body is scanned first, building nothing; then its work is admitted by {@code budget}, and
     * only then are its trees parsed and its maps made, their objects claiming their cost from it when built.
     */
    static Envelope read(byte[] body, Set<String> maps, Set<String> trees, CallBudget budget) {
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
        Map<String, TreePlace> treePlaces = new LinkedHashMap<>();
        Map<String, ObjectMap.Places> mapPlaces = new LinkedHashMap<>();
        int end = scanner.skipWhitespace(scanner.fields(start, (name, valueStart) -> {
            envelope.present.add(name);
            if (maps.contains(name)) {
                ObjectMap.Places places = ObjectMap.scan(scanner, valueStart, "/" + name, budget);
                mapPlaces.put(name, places);
                return places.end();
            }
            if (trees.contains(name)) {
                envelope.trees.remove(name);
                treePlaces.remove(name);
                SharedTrees.Kept known = name.equals("controller") ? knownController(scanner, valueStart) : null;
                if (known != null) {
                    envelope.trees.put(name, known.tree());
                    return valueStart + known.text().length;
                }
                scanner.mark();
                int valueEnd = scanner.valueEnd(valueStart);
                treePlaces.put(name, new TreePlace(valueStart, valueEnd, scanner.censusSinceMark(valueStart, valueEnd)));
                return valueEnd;
            }
            return scanner.valueEnd(valueStart);
        }));
        if (!scanner.atEnd(end)) {
            throw new MalformedRequestException("", "request body is not valid JSON: more data after the first value");
        }
        requireOwner(envelope.has("parent"), envelope.has("object"));
        budget.admit(work(body, treePlaces.values(), mapPlaces.values()));
        treePlaces.forEach((name, place) -> envelope.trees.put(name, name.equals("controller")
                ? controller(body, place) : tree(body, place.start(), place.end())));
        mapPlaces.forEach((name, places) -> envelope.maps.put(name, ObjectMap.build(places, body, budget)));
        return envelope;
    }

    /** Where a field to be parsed as a tree is, and what the scanner counted in it. */
    private record TreePlace(int start, int end, JsonCensus census) {
    }

    /** What building the trees and holding the maps' places of a scanned body takes, before any of it is built. */
    private static CallBudget.Work work(byte[] body, Collection<TreePlace> treePlaces, Collection<ObjectMap.Places> mapPlaces) {
        JsonCensus trees = JsonCensus.NOTHING;
        for (TreePlace place : treePlaces) {
            trees = trees.plus(place.census());
        }
        long observed = 0;
        long groups = 0;
        long keyBytes = 0;
        for (ObjectMap.Places places : mapPlaces) {
            observed += places.objectCount();
            groups += places.groupCount();
            keyBytes += places.keyBytes();
        }
        return new CallBudget.Work(body.length, trees, observed, groups, keyBytes);
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
     * where its text says, so no more bytes belong to it). Null for a controller not seen before.
     */
    private static SharedTrees.Kept knownController(JsonScanner scanner, int start) {
        return scanner.at(start) == '{' ? CONTROLLERS.at(scanner.body(), start) : null;
    }

    /** A controller object not seen before, scanned (and counted) already: parsed and kept for the calls after. */
    private static JsonNode controller(byte[] body, TreePlace place) {
        try {
            return CONTROLLERS.tree(body, place.start(), place.end(), place.census());
        } catch (IOException e) {
            throw new MalformedRequestException("/controller", "request body is not valid JSON: " + e.getMessage());
        }
    }

    /**
     * Scanned first, so the field's bytes meet the same rules as the children's (Jackson lets overlong
     * UTF-8 and CESU-8 surrogates through), then parsed by Jackson.
     */
    private static JsonNode tree(byte[] body, int start, int end) {
        try (JsonParser parser = Json.mapper().createParser(body, start, end - start)) {
            return Json.mapper().readTree(parser);
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
