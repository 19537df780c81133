package dev.metahook.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.internal.wire.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * Manifests applied to the rig's API server with {@code kubectl apply} (its field validation strict, so an
 * unknown field is refused, not pruned) and read back: every field applied must be stored as applied,
 * and the server may add only fields of its own (defaults, metadata, kubectl's last-applied annotation).
 * Custom resource definitions go first and are waited for, so that one file may hold a CRD and its objects.
 */
final class AppliedManifests {
    private AppliedManifests() {
    }

    /** Applies the objects and reads them back, in order; fails naming every field the server did not keep. */
    static List<ObjectNode> apply(Commands commands, Path work, String name, List<ObjectNode> objects) throws Exception {
        List<ObjectNode> definitions = objects.stream().filter(AppliedManifests::definition).toList();
        List<ObjectNode> rest = objects.stream().filter(object -> !definition(object)).toList();
        List<ObjectNode> stored = new ArrayList<>();
        if (!definitions.isEmpty()) {
            Path file = list(work.resolve(name + "-definitions.json"), definitions);
            commands.run(Duration.ofMinutes(2), "kubectl", "apply", "-f", file.toString());
            for (ObjectNode definition : definitions) {
                commands.run(Duration.ofMinutes(1), "kubectl", "wait", "--for=condition=established", "--timeout=60s",
                        "crd/" + definition.at("/metadata/name").asText());
            }
            stored.addAll(readBack(commands, file));
        }
        if (!rest.isEmpty()) {
            Path file = list(work.resolve(name + ".json"), rest);
            commands.run(Duration.ofMinutes(2), "kubectl", "apply", "-f", file.toString());
            stored.addAll(readBack(commands, file));
        }
        List<ObjectNode> sent = new ArrayList<>(definitions);
        sent.addAll(rest);
        assertKept(sent, stored);
        return stored;
    }

    /**
     * What the server would store for the objects ({@code kubectl apply --dry-run=server}: admission, validation
     * and defaults run, nothing is written), checked as {@link #apply} checks what it stores.
     */
    static List<ObjectNode> dryRun(Commands commands, Path work, String name, List<ObjectNode> objects) throws Exception {
        Path file = list(work.resolve(name + ".json"), objects);
        JsonNode answer = parse(commands.output(Duration.ofMinutes(2), "kubectl", "apply", "--dry-run=server", "-f", file.toString(),
                "-o", "json"));
        List<ObjectNode> stored = objects(answer);
        assertKept(objects, stored);
        return stored;
    }

    /** Deletes what {@link #apply} applied from these objects, without waiting: the rig's last test may end first. */
    static void delete(Commands commands, Path work, String name) throws Exception {
        for (String file : new String[] {name + ".json", name + "-definitions.json"}) {
            if (Files.exists(work.resolve(file))) {
                commands.exitCode(Duration.ofMinutes(1), "kubectl", "delete", "-f", work.resolve(file).toString(), "--ignore-not-found",
                        "--wait=false");
            }
        }
    }

    /**
     * Deletes what {@link #apply} applied from these objects but the custom resource definitions, which other
     * objects (another test's, the rig's own) may still need; without waiting.
     */
    static void deleteObjects(Commands commands, Path work, String name) throws Exception {
        if (Files.exists(work.resolve(name + ".json"))) {
            commands.exitCode(Duration.ofMinutes(1), "kubectl", "delete", "-f", work.resolve(name + ".json").toString(), "--ignore-not-found",
                    "--wait=false");
        }
    }

    private static void assertKept(List<ObjectNode> sent, List<ObjectNode> stored) {
        assertEquals(sent.size(), stored.size(), "as many objects stored as applied");
        List<String> lost = new ArrayList<>();
        for (int i = 0; i < sent.size(); i++) {
            ObjectNode wanted = sent.get(i);
            String what = wanted.path("kind").asText() + " " + wanted.at("/metadata/name").asText();
            assertEquals(wanted.path("kind"), stored.get(i).path("kind"), what);
            notKept(wanted, stored.get(i), "", lost, what);
        }
        assertEquals(List.of(), lost, "every field applied is stored as applied");
    }

    /**
     * Adds each place where the stored value lacks or changes the sent one; the stored value may have more
     * fields (the server's defaults), never fewer, and its lists have the sent items in the sent order.
     */
    static void notKept(JsonNode sent, JsonNode stored, String pointer, List<String> out, String what) {
        if (sent.isObject()) {
            if (!stored.isObject()) {
                out.add(what + " " + pointer + ": " + sent + " stored as " + stored);
                return;
            }
            for (Iterator<String> names = sent.fieldNames(); names.hasNext(); ) {
                String field = names.next();
                notKept(sent.get(field), stored.path(field), pointer + "/" + field.replace("~", "~0").replace("/", "~1"), out, what);
            }
        } else if (sent.isArray()) {
            if (!stored.isArray() || stored.size() != sent.size()) {
                out.add(what + " " + pointer + ": " + sent + " stored as " + stored);
                return;
            }
            for (int i = 0; i < sent.size(); i++) {
                notKept(sent.get(i), stored.get(i), pointer + "/" + i, out, what);
            }
        } else if (sent.isNumber() && stored.isNumber() ? sent.decimalValue().compareTo(stored.decimalValue()) != 0 : !sent.equals(stored)) {
            out.add(what + " " + pointer + ": " + sent + " stored as " + (stored.isMissingNode() ? "nothing" : stored));
        }
    }

    private static boolean definition(ObjectNode object) {
        return object.path("kind").asText().equals("CustomResourceDefinition");
    }

    private static List<ObjectNode> readBack(Commands commands, Path file) throws Exception {
        return objects(parse(commands.output(Duration.ofMinutes(1), "kubectl", "get", "-f", file.toString(), "-o", "json")));
    }

    /** The objects kubectl printed: a List's items, or the one object (kubectl prints no List for one). */
    private static List<ObjectNode> objects(JsonNode printed) {
        List<ObjectNode> objects = new ArrayList<>();
        if (printed.path("kind").asText().equals("List")) {
            printed.path("items").forEach(item -> objects.add((ObjectNode) item));
        } else {
            objects.add((ObjectNode) printed);
        }
        return objects;
    }

    private static Path list(Path file, List<ObjectNode> objects) throws Exception {
        ObjectNode list = Json.object().put("apiVersion", "v1").put("kind", "List");
        list.putArray("items").addAll(objects);
        return Files.writeString(file, list.toPrettyString());
    }

    private static JsonNode parse(String json) {
        return Json.parse(json.getBytes(StandardCharsets.UTF_8));
    }
}
