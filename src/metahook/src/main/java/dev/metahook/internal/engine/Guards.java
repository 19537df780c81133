package dev.metahook.internal.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.api.ChildId;
import dev.metahook.api.HookResult;
import dev.metahook.internal.contract.AnswerRules;
import dev.metahook.internal.contract.Breach;
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
        Set<ChildId> relatedIds = ids(related, namespace);
        relatedIds.removeAll(ids(observed, namespace));
        this.owner = new AnswerRules.Owner(controller, parent, decorator, groups, relatedIds);
    }

    void check(List<ObjectNode> desired, HookResult<?> result) {
        List<Breach> breaches = new ArrayList<>(AnswerRules.children(desired, owner));
        Set<ChildId> desiredIds = new HashSet<>();
        desired.forEach(child -> desiredIds.add(AnswerRules.id(child, owner.namespace())));
        Set<ChildId> deletions = new HashSet<>();
        result.deletions().forEach(id -> deletions.add(id.inNamespace(owner.namespace())));
        breaches.addAll(AnswerRules.omitted(desiredIds, new ArrayList<>(ids(observed, owner.namespace())), deletions,
                result.deletesUnlisted(), owner.decorator()));
        if (!breaches.isEmpty()) {
            throw new GuardViolation(breaches);
        }
    }

    /**
     * The identities of every object of a map, each in its own namespace (the parent's for a v1 key; {@code ""}
     * when cluster-scoped, as {@link ChildId} says), in the map's order.
     */
    private static Set<ChildId> ids(ObjectMap objects, String parentNamespace) {
        Set<ChildId> ids = new LinkedHashSet<>();
        for (ObservedObject object : objects.entries()) {
            ids.add(new ChildId(object.group().apiVersion(), object.group().kind(), object.namespaceOr(parentNamespace), object.name()));
        }
        return ids;
    }
}
