package dev.metahook.internal.sim;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahook.api.ChildId;
import dev.metahook.internal.contract.Breach;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * The {@code deletes-children} rule, for children and attachments alike: an object answered once for
 * a generation of its owner, and left out later for the same generation while Metacontroller still
 * observes it, is deleted by accident. One that is gone already (a pod being recreated) deletes
 * nothing by its absence.
 */
final class Omissions {
    private final String field;
    private final String what;
    private final Map<Long, Set<ChildId>> desiredByGeneration = new HashMap<>();

    /** @param field {@code children} or {@code attachments}: where the request and the response hold them */
    Omissions(String field) {
        this.field = field;
        this.what = field.equals("children") ? "" : "attachment ";
    }

    /** A new life: what earlier generations answered no longer counts. */
    void clear() {
        desiredByGeneration.clear();
    }

    /** The breaches of one sync answer for this owner (the parent, or a decorator's target), each with the child it is about. */
    void inspect(CompositeSimulator.HookCall call, JsonNode owner, BiConsumer<ChildId, Breach> breaches) {
        if (call.response() == null || call.hook().equals("customize") || call.request().path("finalizing").asBoolean(false)) {
            return;
        }
        long generation = owner.path("metadata").path("generation").asLong();
        Set<ChildId> now = new LinkedHashSet<>();
        call.response().path(field).forEach(object -> now.add(inOwnersNamespace(object, owner)));
        Set<ChildId> observed = new LinkedHashSet<>();
        call.request().path(field).forEach(group -> group.forEach(object -> observed.add(inOwnersNamespace(object, owner))));
        Set<ChildId> before = desiredByGeneration.computeIfAbsent(generation, g -> new LinkedHashSet<>(now));
        for (ChildId ref : before) {
            if (!now.contains(ref) && observed.contains(ref)) {
                breaches.accept(ref, new Breach("deletes-children", "sync left out " + what + Ids.text(ref) + ", which it answered before for the"
                        + " same spec (generation " + generation + "): Metacontroller deletes it"));
            }
        }
    }

    /** The object's identity, in its owner's namespace when it names none. */
    static ChildId inOwnersNamespace(JsonNode object, JsonNode owner) {
        return Ids.of(object).inNamespace(owner.path("metadata").path("namespace").asText(""));
    }
}
