package dev.metahook.internal.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.api.HookResult;
import dev.metahook.internal.contract.AnswerRules;
import dev.metahook.internal.contract.Breach;
import dev.metahook.internal.contract.ObjectId;
import dev.metahook.internal.wire.ObjectMap;
import dev.metahook.internal.wire.ObservedObject;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Refuses a response before it leaves when it breaks a rule of {@link AnswerRules}: what Metacontroller
 * would fail on later and less clearly, and what would do harm (a child deleted because nobody said
 * so). Every broken rule is listed, each naming the rule and the child.
 */
final class Guards {
    private final AnswerRules.Owner owner;
    private final ObjectMap observed;

    /** @param decorator whether the answer is a DecoratorController's (attachments, no selector) */
    Guards(JsonNode controller, JsonNode parent, ObjectMap observed, ObjectMap related, boolean decorator) {
        this.observed = observed;
        String namespace = parent.path("metadata").path("namespace").asText("");
        Set<String> groups = new HashSet<>();
        observed.groupKeys().forEach(key -> groups.add(key.toString()));
        Set<ObjectId> relatedIds = ids(related, namespace);
        relatedIds.removeAll(ids(observed, namespace));
        this.owner = new AnswerRules.Owner(controller, parent, decorator, groups, relatedIds);
    }

    void check(List<ObjectNode> desired, HookResult<?> result) {
        List<Breach> breaches = new ArrayList<>(AnswerRules.children(desired, owner));
        Set<ObjectId> desiredIds = new HashSet<>();
        desired.forEach(child -> desiredIds.add(AnswerRules.id(child, owner.namespace())));
        Set<ObjectId> deletions = new HashSet<>();
        String parentNamespace = owner.namespace().isEmpty() ? null : owner.namespace();
        result.deletions().forEach(id -> {
            var in = id.inNamespace(parentNamespace);
            deletions.add(new ObjectId(in.apiVersion(), in.kind(), in.namespace(), in.name()));
        });
        breaches.addAll(AnswerRules.omitted(desiredIds, new ArrayList<>(ids(observed, owner.namespace())), deletions,
                result.deletesUnlisted(), owner.decorator()));
        if (!breaches.isEmpty()) {
            throw new GuardViolation(breaches);
        }
    }

    /** The identities of every object of a map, each in its own namespace (the parent's for a v1 key), in the map's order. */
    private static Set<ObjectId> ids(ObjectMap objects, String parentNamespace) {
        Set<ObjectId> ids = new LinkedHashSet<>();
        String namespace = parentNamespace.isEmpty() ? null : parentNamespace;
        for (ObservedObject object : objects.entries()) {
            String in = object.namespaceOr(namespace);
            ids.add(new ObjectId(object.group().apiVersion(), object.group().kind(), in == null ? "" : in, object.name()));
        }
        return ids;
    }
}
