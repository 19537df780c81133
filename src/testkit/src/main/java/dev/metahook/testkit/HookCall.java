package dev.metahook.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.api.Controllers.Kind;
import dev.metahook.api.Hook;
import dev.metahook.internal.contract.AnswerRules;
import dev.metahook.internal.wire.CanonicalJson;
import dev.metahook.internal.wire.GroupKey;
import dev.metahook.internal.wire.HookVersion;
import dev.metahook.internal.wire.Json;
import dev.metahook.internal.wire.LastAppliedConfiguration;
import dev.metahook.internal.wire.ObjectMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.nio.charset.StandardCharsets;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * One hook call being put together: the parent, what Metacontroller observed, the related objects.
 * Objects are given as they would be desired (or as {@code kubectl get} shows them); what the API
 * server and Metacontroller add is filled in where it is missing, so the request is the one a real
 * Metacontroller sends.
 */
public final class HookCall {
    private static final String COMPOSITE_FINALIZER = "metacontroller.io/compositecontroller-";
    private static final String DECORATOR_FINALIZER = "metacontroller.io/decoratorcontroller-";

    private final HookTester tester;
    private final Hook hook;
    private final ObjectNode parent;
    private final List<ObjectNode> children = new ArrayList<>();
    private final List<ObjectNode> related = new ArrayList<>();

    HookCall(HookTester tester, Hook hook, HasMetadata parent) {
        this.tester = tester;
        this.hook = hook;
        this.parent = stored(parent);
    }

    /** Children (a decorator's attachments) Metacontroller observed; a child's status is what its object carries. */
    public HookCall observing(HasMetadata... observed) {
        return observing(Arrays.asList(observed));
    }

    public HookCall observing(Collection<? extends HasMetadata> observed) {
        observed.forEach(child -> children.add(owned(child)));
        return this;
    }

    /** Objects the customize hook selected, as the API server stores them. */
    public HookCall related(HasMetadata... objects) {
        return related(Arrays.asList(objects));
    }

    public HookCall related(Collection<? extends HasMetadata> objects) {
        objects.forEach(object -> related.add(withServerFields(tree(object))));
        return this;
    }

    /** The request body as Metacontroller would send it. */
    public byte[] body() {
        return CanonicalJson.bytes(request());
    }

    /** Calls the controller in-process through the engine and returns its answer. */
    public Answer call() {
        var answer = tester.engine().handle(tester.registration().name(), hook.segment(), body());
        return new Answer(answer.status(), answer.headers(), answer.body());
    }

    private ObjectNode request() {
        ObjectNode request = Json.object();
        request.set("controller", tester.manifest());
        boolean decorator = tester.registration().kind() == Kind.DECORATOR;
        if (hook == Hook.CUSTOMIZE) {
            request.set("parent", parent);
            return request;
        }
        request.set(decorator ? "object" : "parent", parent);
        request.set(decorator ? "attachments" : "children", map(children));
        request.set("related", map(related));
        request.put("finalizing", hook == Hook.FINALIZE);
        return request;
    }

    private ObjectNode map(List<ObjectNode> objects) {
        HookVersion version = HookVersion.declared(tester.manifest(), hook.segment());
        Set<GroupKey> groups = new LinkedHashSet<>();
        objects.forEach(object -> groups.add(new GroupKey(object.path("kind").asText(), object.path("apiVersion").asText())));
        return ObjectMap.of(objects, List.copyOf(groups), version, !namespace().isEmpty()).toJson();
    }

    /** The parent as the API server stores it, with Metacontroller's finalizer when the controller has a finalize hook. */
    private ObjectNode stored(HasMetadata typed) {
        ObjectNode tree = withServerFields(tree(typed));
        ObjectNode metadata = tree.withObjectProperty("metadata");
        if (tester.registration().hooks().contains(Hook.FINALIZE)) {
            String prefix = tester.registration().kind() == Kind.COMPOSITE ? COMPOSITE_FINALIZER : DECORATOR_FINALIZER;
            String finalizer = prefix + tester.manifest().path("metadata").path("name").asText();
            if (!contains(metadata.path("finalizers"), finalizer)) {
                metadata.withArray("finalizers").add(finalizer);
            }
        }
        if (hook == Hook.FINALIZE && !metadata.hasNonNull("deletionTimestamp")) {
            metadata.put("deletionTimestamp", now());
        }
        return tree;
    }

    /**
     * A child as Metacontroller created it and now observes it: labelled with the parent's uid (with
     * {@code generateSelector}), annotated with what was applied, owned by the parent, with what the
     * API server adds. Whatever the given object already carries of these is kept.
     */
    private ObjectNode owned(HasMetadata child) {
        ObjectNode observed = tree(child);
        ObjectNode metadata = observed.withObjectProperty("metadata");
        String parentNamespace = namespace();
        if (!parentNamespace.isEmpty() && !metadata.hasNonNull("namespace")) {
            metadata.put("namespace", parentNamespace);
        }
        String parentUid = parent.path("metadata").path("uid").asText();
        boolean composite = tester.registration().kind() == Kind.COMPOSITE;
        if (composite && tester.manifest().path("spec").path("generateSelector").asBoolean(false)
                && !metadata.path("labels").has("controller-uid")) {
            metadata.withObjectProperty("labels").put("controller-uid", parentUid);
        }
        if (!metadata.path("annotations").has(LastAppliedConfiguration.ANNOTATION)) {
            metadata.withObjectProperty("annotations").put(LastAppliedConfiguration.ANNOTATION, CanonicalJson.string(applied(observed)));
        }
        if (composite && !metadata.has("ownerReferences")) {
            metadata.putArray("ownerReferences").addObject()
                    .put("apiVersion", parent.path("apiVersion").asText()).put("kind", parent.path("kind").asText())
                    .put("name", parent.path("metadata").path("name").asText()).put("uid", parentUid)
                    .put("controller", true).put("blockOwnerDeletion", true);
        }
        return withServerFields(observed);
    }

    /** What Metacontroller applied: the object without status, server-managed metadata or the annotation itself. */
    private static ObjectNode applied(ObjectNode observed) {
        ObjectNode applied = observed.deepCopy();
        applied.remove("status");
        ObjectNode metadata = applied.withObjectProperty("metadata");
        AnswerRules.SERVER_METADATA.forEach(metadata::remove);
        if (metadata.path("annotations") instanceof ObjectNode annotations) {
            annotations.remove(LastAppliedConfiguration.ANNOTATION);
            if (annotations.isEmpty()) {
                metadata.remove("annotations");
            }
        }
        return applied;
    }

    /** What the API server adds on create, where it is missing: uid, resourceVersion, generation, creationTimestamp. */
    private ObjectNode withServerFields(ObjectNode object) {
        ObjectNode metadata = object.withObjectProperty("metadata");
        if (!metadata.hasNonNull("uid")) {
            String identity = object.path("kind").asText() + "/" + metadata.path("namespace").asText("") + "/"
                    + metadata.path("name").asText();
            metadata.put("uid", UUID.nameUUIDFromBytes(identity.getBytes(StandardCharsets.UTF_8)).toString());
        }
        if (!metadata.hasNonNull("resourceVersion")) {
            metadata.put("resourceVersion", "1");
        }
        if (!metadata.hasNonNull("generation")) {
            metadata.put("generation", 1);
        }
        if (!metadata.hasNonNull("creationTimestamp")) {
            metadata.put("creationTimestamp", now());
        }
        return object;
    }

    private String namespace() {
        return parent.path("metadata").path("namespace").asText("");
    }

    private String now() {
        return DateTimeFormatter.ISO_INSTANT.format(tester.clock().instant().truncatedTo(ChronoUnit.SECONDS));
    }

    private static ObjectNode tree(HasMetadata object) {
        if (object == null) {
            throw new IllegalArgumentException("an object is null");
        }
        JsonNode tree = Json.tree(object);
        if (!(tree instanceof ObjectNode node) || !node.path("metadata").path("name").isTextual()) {
            throw new IllegalArgumentException(object.getKind() + " has no metadata.name");
        }
        return node.deepCopy();
    }

    private static boolean contains(JsonNode array, String value) {
        for (JsonNode item : array) {
            if (value.equals(item.asText())) {
                return true;
            }
        }
        return false;
    }
}
