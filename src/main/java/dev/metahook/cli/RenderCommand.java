package dev.metahook.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.flipkart.zjsonpatch.JsonDiff;
import dev.metahook.sim.CompositeSimulator;
import dev.metahook.sim.ControllerSpec;
import dev.metahook.sim.ObjectRef;
import dev.metahook.sim.ObjectStore;
import dev.metahook.wire.CanonicalJson;
import dev.metahook.wire.Json;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;

/**
 * {@code render}: what a hook answers for a parent (the desired children and the status) as YAML;
 * with the observed children, an RFC 6902 patch per child of what Metacontroller would change.
 */
final class RenderCommand {
    static final String USAGE = "usage: java -jar metahook.jar render --controller <CompositeController yaml> --parent <parent yaml>"
            + " [--observed <children yaml>] [--url <hook url>]";

    private RenderCommand() {
    }

    static int run(List<String> args, Map<String, String> env, PrintStream out, PrintStream err) {
        Arguments arguments = Arguments.parse(args, Set.of("controller", "parent", "observed", "url"), USAGE);
        ControllerSpec spec = controller(arguments.required("controller", USAGE));
        ObjectNode parent = ManifestFiles.one(arguments.required("parent", USAGE));
        List<ObjectNode> observed = arguments.optional("observed") == null ? List.of() : ManifestFiles.all(arguments.optional("observed"));
        ObjectStore store = new ObjectStore(Clock.systemUTC());
        CompositeSimulator simulator = new CompositeSimulator(spec, store, Hooks.of(spec, arguments.optional("url"), env));
        ObjectNode stored = store.create(withIdentity(parent, observed));
        observed.forEach(child -> store.create(owned(child, stored, spec.generateSelector())));
        CompositeSimulator.HookCall call = simulator.call(stored);
        if (!call.succeeded()) {
            err.println("metahook render: the " + call.hook() + " hook did not answer with a usable 200: " + failure(call));
            return 1;
        }
        ObjectNode output = (ObjectNode) Json.parse(CanonicalJson.bytes(call.response()));
        if (arguments.optional("observed") != null) {
            output.set("diff", diff(simulator.observed(stored), simulator.desiredChildren(stored, call.response().path("children"))));
        }
        out.print(ManifestFiles.yaml(output));
        return 0;
    }

    static ControllerSpec controller(String file) {
        ControllerSpec spec;
        try {
            spec = ControllerSpec.read(ManifestFiles.one(file));
        } catch (IllegalArgumentException e) {
            throw new UsageException(file + ": " + e.getMessage());
        }
        if (spec.decorator()) {
            throw new UsageException(file + ": render and check take a CompositeController;"
                    + " a DecoratorController is simulated through the Java API (DecoratorSimulator)");
        }
        return spec;
    }

    /**
     * A parent written by hand has no uid yet: it takes the one its observed children name as their
     * owner, or else one made from its name, as the API server would give it one.
     */
    static ObjectNode withIdentity(ObjectNode parent, List<ObjectNode> observed) {
        ObjectNode copy = parent.deepCopy();
        ObjectNode metadata = copy.with("metadata");
        if (!metadata.hasNonNull("uid")) {
            String uid = observed.stream().flatMap(child -> java.util.stream.StreamSupport.stream(
                            child.path("metadata").path("ownerReferences").spliterator(), false))
                    .filter(owner -> owner.path("controller").asBoolean(false)
                            && owner.path("kind").asText().equals(parent.path("kind").asText())
                            && owner.path("name").asText().equals(metadata.path("name").asText()))
                    .map(owner -> owner.path("uid").asText()).findFirst()
                    .orElseGet(() -> UUID.nameUUIDFromBytes(CanonicalJson.bytes(metadata.path("name"))).toString());
            metadata.put("uid", uid);
        }
        return copy;
    }

    private static ObjectNode owned(ObjectNode child, ObjectNode parent, boolean generateSelector) {
        ObjectNode copy = child.deepCopy();
        ObjectNode metadata = copy.with("metadata");
        String namespace = parent.path("metadata").path("namespace").asText("");
        if (!metadata.hasNonNull("namespace") && !namespace.isEmpty()) {
            metadata.put("namespace", namespace);
        }
        String uid = parent.path("metadata").path("uid").asText();
        if (generateSelector && !metadata.path("labels").has("controller-uid")) {
            metadata.with("labels").put("controller-uid", uid);
        }
        if (!metadata.has("ownerReferences")) {
            metadata.putArray("ownerReferences").addObject().put("apiVersion", parent.path("apiVersion").asText())
                    .put("kind", parent.path("kind").asText()).put("name", parent.path("metadata").path("name").asText())
                    .put("uid", uid).put("controller", true).put("blockOwnerDeletion", true);
        }
        return copy;
    }

    private static ObjectNode diff(List<ObjectNode> observed, List<ObjectNode> desired) {
        Map<ObjectRef, ObjectNode> before = new TreeMap<>();
        observed.forEach(child -> before.put(ObjectRef.of(child), child));
        Map<ObjectRef, JsonNode> patches = new TreeMap<>();
        for (ObjectNode child : desired) {
            ObjectRef ref = ObjectRef.of(child);
            ObjectNode existing = before.remove(ref);
            patches.put(ref, existing == null ? Json.mapper().createArrayNode().add(Json.object().put("op", "add").put("path", "").set("value", child))
                    : JsonDiff.asJson(existing, CompositeSimulator.merged(existing, child)));
        }
        before.keySet().forEach(ref -> patches.put(ref, Json.mapper().createArrayNode().add(Json.object().put("op", "remove").put("path", ""))));
        ObjectNode out = Json.object();
        patches.forEach((ref, patch) -> out.set(ref.kind() + "." + ref.apiVersion() + " " + (ref.namespace().isEmpty() ? "" : ref.namespace() + "/") + ref.name(), patch));
        return out;
    }

    static String failure(CompositeSimulator.HookCall call) {
        if (call.reply().error() != null) {
            return call.reply().error();
        }
        if (call.reply().status() != 200) {
            return "status " + call.reply().status() + ": " + new String(call.reply().body(), StandardCharsets.UTF_8);
        }
        return String.join("; ", call.problems());
    }
}
