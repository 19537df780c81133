package dev.metahook.internal.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.api.ChildId;
import dev.metahook.internal.contract.Breach;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * What {@code check} asks of a controller with a customize hook, for either kind: where the controller says its
 * related objects are required, that its rules select something in the run ({@code no-related}; elsewhere a rule
 * that selects nothing is the parent's normal state), and that its answer follows a related object (one it was sent is deleted and the hook must answer
 * otherwise: {@code ignores-related}; then it is put back).
 */
final class RelatedChecks {
    private RelatedChecks() {
    }

    /**
     * Customize calls slower than the timeout, and, when {@code required}, every rule customize answered that selected no
     * object in any call.
     */
    static List<Breach> of(Customize customize, Duration timeout, boolean required) {
        List<Breach> breaches = new ArrayList<>();
        Map<String, Integer> selected = new LinkedHashMap<>();
        int calls = 0;
        for (Customize.Result result : customize.history()) {
            calls++;
            if (result.call() != null && result.call().succeeded() && result.call().reply().took().compareTo(timeout) > 0) {
                breaches.add(new Breach("too-slow", "customize took " + result.call().reply().took().toMillis() + " ms, more than the "
                        + timeout.toMillis() + " ms Metacontroller waits"));
            }
            result.rules().forEach(rule -> selected.merge(rule.describe(), rule.objects(), Math::max));
        }
        int customizeCalls = calls;
        selected.forEach((rule, objects) -> {
            if (objects == 0 && required) {
                breaches.add(new Breach("no-related", "customize asked for " + rule + " and no object matched it in " + customizeCalls
                        + " customize calls, and the controller says it requires its related objects (" + dev.metahook.api.Declaration.REQUIRES_RELATED
                        + "): give such objects with --related"));
            }
        });
        return breaches;
    }

    /** The customize calls that answered (a failed one ended its pass, and is counted with the passes). */
    static int answeredCalls(Customize customize) {
        return (int) customize.history().stream().filter(result -> result.call() != null && result.call().succeeded()).count();
    }

    /**
     * Deletes the first related object the last answered request carried, lets the hook answer through
     * {@code converge} (which names the step), and puts the object back; a breach when the answer stayed
     * the same. Nothing happens when no request carried a related object, or when a rule of the last
     * customize answer selected nothing: that is {@code no-related}, and the hook may rightly answer
     * the same without the objects it lacks. The answers are compared as Metacontroller reads them
     * ({@link ChildOrder}): children in another order are the same answer.
     */
    static Optional<Breach> change(Simulation simulation, Function<String, Simulation.Run> converge) {
        List<Customize.Result> customized = simulation.simulator().customize().history();
        if (customized.isEmpty() || customized.get(customized.size() - 1).rules().stream().anyMatch(rule -> rule.objects() == 0)) {
            return Optional.empty();
        }
        CompositeSimulator.HookCall last = lastAnswered(simulation.history());
        ObjectNode related = last == null ? null : firstRelated(last.request().path("related"));
        if (related == null) {
            return Optional.empty();
        }
        ChildId ref = Ids.of(related);
        Optional<ObjectNode> stored = simulation.store().get(ref);
        if (stored.isEmpty()) {
            return Optional.empty();
        }
        simulation.store().delete(ref);
        Simulation.Run run = converge.apply("deleting related " + Ids.text(ref));
        CompositeSimulator.HookCall after = lastAnswered(run.passes());
        Optional<Breach> breach = after != null
                && ChildOrder.difference(simulation.simulator().spec(), last.response(), after.response()).isEmpty()
                ? Optional.of(new Breach("ignores-related", "the answer stayed the same when related " + Ids.text(ref)
                + ", which customize asked for, was deleted: the hook does not read its related objects"))
                : Optional.empty();
        if (simulation.store().get(ref).isEmpty()) {
            simulation.store().create(stored.get());
            converge.apply("restoring related " + Ids.text(ref));
        }
        return breach;
    }

    private static CompositeSimulator.HookCall lastAnswered(List<CompositeSimulator.Pass> passes) {
        for (int i = passes.size() - 1; i >= 0; i--) {
            CompositeSimulator.HookCall call = passes.get(i).call();
            if (call != null && call.succeeded() && !call.hook().equals("customize") && !call.request().path("finalizing").asBoolean()) {
                return call;
            }
        }
        return null;
    }

    private static ObjectNode firstRelated(JsonNode related) {
        for (Iterator<JsonNode> groups = related.elements(); groups.hasNext(); ) {
            Iterator<JsonNode> objects = groups.next().elements();
            if (objects.hasNext()) {
                return (ObjectNode) objects.next();
            }
        }
        return null;
    }
}
