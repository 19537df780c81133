package dev.metahook.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.api.ChildId;
import dev.metahook.internal.sim.Ids;
import io.fabric8.zjsonpatch.JsonDiff;
import dev.metahook.internal.sim.CompositeSimulator;
import dev.metahook.internal.sim.ControllerSpec;
import dev.metahook.internal.sim.DecoratorSimulator;
import dev.metahook.internal.sim.HookClient;
import dev.metahook.internal.sim.HttpHook;
import dev.metahook.internal.sim.KubernetesVersion;
import dev.metahook.internal.sim.ObjectStore;
import dev.metahook.internal.sim.Simulator;
import dev.metahook.internal.wire.CanonicalJson;
import dev.metahook.internal.wire.Json;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.StreamSupport;

/**
 * {@code render}: what a hook answers for a parent (the desired children and the status) or for a
 * decorator's target (labels, annotations, status, attachments) as YAML; with the observed children
 * or attachments, an RFC 6902 patch per object of what Metacontroller would change, the target's
 * included. With related objects, customize selects among them and the output lists what was sent.
 */
final class RenderCommand {
    static final String USAGE = "usage: java -jar metahook.jar render --controller <yaml with a CompositeController or DecoratorController> [--controller-name <name>]"
            + " --parent <parent or target yaml> [--observed <children or attachments yaml>] [--related <objects yaml>] [--url <hook url>]"
            + HookCredentials.OPTIONS + " [--kubernetes-version <1.29 to 1.37>]";

    private RenderCommand() {
    }

    static int run(List<String> args, Map<String, String> env, PrintStream out, PrintStream err) {
        Arguments arguments = Arguments.parse(args, Set.of("controller", "controller-name", "parent", "observed", "related", "url",
                "token-file", "cacert", "cert", "key", "kubernetes-version"), USAGE);
        HttpHook.Credentials credentials = HookCredentials.of(arguments, USAGE);
        ControllerSpec spec = ManifestFiles.controller(arguments.required("controller", USAGE), arguments.optional("controller-name"));
        ObjectNode parent = ManifestFiles.one(arguments.required("parent", USAGE));
        String observedFile = arguments.optional("observed");
        List<ObjectNode> observed = observedFile == null ? List.of() : ManifestFiles.all(observedFile);
        String version = arguments.optional("kubernetes-version");
        ObjectStore store = new ObjectStore(Clock.systemUTC(), version == null ? KubernetesVersion.NEWEST
                : CheckCommand.kubernetesVersion(version, USAGE));
        ManifestFiles.related(arguments.optional("related")).forEach(store::create);
        try (HookClient hooks = Hooks.of(spec, arguments.optional("url"), credentials, env)) {
            return render(spec, store, hooks, parent, observed, observedFile != null, out, err);
        }
    }

    /** One call of the hook for the parent with its observed children: its answer, and the diff when {@code diff}. */
    private static int render(ControllerSpec spec, ObjectStore store, HookClient hooks, ObjectNode parent, List<ObjectNode> observed,
                              boolean diff, PrintStream out, PrintStream err) {
        Simulator simulator = spec.decorator() ? new DecoratorSimulator(spec, store, hooks) : new CompositeSimulator(spec, store, hooks);
        ObjectNode stored = store.create(withIdentity(parent, observed));
        observed.forEach(child -> store.create(owned(child, stored, spec)));
        CompositeSimulator.HookCall call = simulator.call(stored);
        if (!call.succeeded()) {
            err.println("metahook render: the " + call.hook() + " hook did not answer with a usable 200: " + failure(call));
            return 1;
        }
        ObjectNode output = (ObjectNode) Json.parse(CanonicalJson.bytes(call.response()));
        if (spec.hooks().containsKey("customize")) {
            output.set("related", sent(call.request().path("related")));
        }
        if (diff) {
            output.set("diff", simulator instanceof DecoratorSimulator decorator ? decoratorDiff(decorator, stored, call.response())
                    : diff(((CompositeSimulator) simulator).observed(stored),
                    ((CompositeSimulator) simulator).desiredChildren(stored, call.response().path("children"))));
        }
        out.print(ManifestFiles.yaml(output));
        return 0;
    }

    /** The related objects a request carried, as group key to object keys. */
    private static ObjectNode sent(JsonNode related) {
        ObjectNode out = Json.object();
        related.properties().iterator().forEachRemaining(group -> {
            var keys = out.putArray(group.getKey());
            group.getValue().fieldNames().forEachRemaining(keys::add);
        });
        return out;
    }

    /** The target's patch (labels, annotations, status as Metacontroller merges them), then one per attachment. */
    private static ObjectNode decoratorDiff(DecoratorSimulator simulator, ObjectNode target, JsonNode response) {
        ObjectNode out = Json.object();
        out.set(key(Ids.of(target)), JsonDiff.asJson(target, DecoratorSimulator.decorated(target, response)));
        out.setAll(diff(simulator.attachments(target), simulator.desiredAttachments(target, response.path("attachments"))));
        return out;
    }

    /**
     * A parent written by hand has no uid yet: it takes the one its observed children name as their
     * owner, or else one made from its name, as the API server would give it one.
     */
    static ObjectNode withIdentity(ObjectNode parent, List<ObjectNode> observed) {
        ObjectNode copy = parent.deepCopy();
        ObjectNode metadata = copy.withObjectProperty("metadata");
        if (!metadata.hasNonNull("uid")) {
            String uid = observed.stream().flatMap(child -> StreamSupport.stream(
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

    /**
     * An observed child as Metacontroller finds it: in the parent's namespace, owned by it, with the
     * controller-uid label under generateSelector; an attachment also annotated with the decorator's name.
     */
    private static ObjectNode owned(ObjectNode child, ObjectNode parent, ControllerSpec spec) {
        boolean generateSelector = spec.generateSelector();
        ObjectNode copy = child.deepCopy();
        ObjectNode metadata = copy.withObjectProperty("metadata");
        if (spec.decorator() && !metadata.path("annotations").has(DecoratorSimulator.DECORATOR_ANNOTATION)) {
            metadata.withObjectProperty("annotations").put(DecoratorSimulator.DECORATOR_ANNOTATION, spec.name());
        }
        String namespace = parent.path("metadata").path("namespace").asText("");
        if (!metadata.hasNonNull("namespace") && !namespace.isEmpty()) {
            metadata.put("namespace", namespace);
        }
        String uid = parent.path("metadata").path("uid").asText();
        if (generateSelector && !metadata.path("labels").has("controller-uid")) {
            metadata.withObjectProperty("labels").put("controller-uid", uid);
        }
        if (!metadata.has("ownerReferences")) {
            metadata.putArray("ownerReferences").addObject().put("apiVersion", parent.path("apiVersion").asText())
                    .put("kind", parent.path("kind").asText()).put("name", parent.path("metadata").path("name").asText())
                    .put("uid", uid).put("controller", true).put("blockOwnerDeletion", true);
        }
        return copy;
    }

    private static ObjectNode diff(List<ObjectNode> observed, List<ObjectNode> desired) {
        Map<ChildId, ObjectNode> before = new TreeMap<>(Ids.ORDER);
        observed.forEach(child -> before.put(Ids.of(child), child));
        Map<ChildId, JsonNode> patches = new TreeMap<>(Ids.ORDER);
        for (ObjectNode child : desired) {
            ChildId ref = Ids.of(child);
            ObjectNode existing = before.remove(ref);
            patches.put(ref, existing == null ? Json.mapper().createArrayNode().add(Json.object().put("op", "add").put("path", "").set("value", child))
                    : JsonDiff.asJson(existing, CompositeSimulator.merged(existing, child)));
        }
        before.keySet().forEach(ref -> patches.put(ref, Json.mapper().createArrayNode().add(Json.object().put("op", "remove").put("path", ""))));
        ObjectNode out = Json.object();
        patches.forEach((ref, patch) -> out.set(key(ref), patch));
        return out;
    }

    /** {@code Kind.apiVersion namespace/name}: the id's own text. */
    private static String key(ChildId ref) {
        return ref.toString();
    }

    static String failure(CompositeSimulator.HookCall call) {
        if (call.reply().error() != null) {
            return call.reply().error();
        }
        if (call.reply().status() != 200) {
            return "status " + call.reply().status() + ": " + new String(call.reply().body(), StandardCharsets.UTF_8);
        }
        List<String> reasons = new ArrayList<>(call.problems());
        call.refusals().forEach(refusal -> reasons.add(refusal.toString()));
        return String.join("; ", reasons);
    }
}
