package dev.metahook.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.wire.Json;
import java.time.Clock;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * {@link Checker}'s lifecycle for a DecoratorController: a target's life under the simulator
 * (create the target, converge, the same request twice and with its keys reordered, a related object
 * deleted and put back, a spec change, delete and finalize) and every breach of the contract that
 * applies to decorators: the answer's shape (attachments for children), determinism, hot loops,
 * attachments dropped by omission, finalize, and the related objects customize asks for.
 */
public final class DecoratorChecker {
    private final ControllerSpec spec;
    private final HookClient hooks;
    private final Clock clock;
    private final int maxPasses;
    private final Set<Breach> breaches = new LinkedHashSet<>();
    private final Omissions omissions = new Omissions("attachments");
    private int calls;

    public DecoratorChecker(ControllerSpec spec, HookClient hooks, Clock clock, int maxPasses) {
        if (!spec.decorator()) {
            throw new IllegalArgumentException(spec.name() + " is not a DecoratorController");
        }
        this.spec = spec;
        this.hooks = hooks;
        this.clock = clock;
        this.maxPasses = maxPasses;
    }

    /**
     * Runs the lifecycle of {@code target}; {@code updatedTarget} is the spec change, or null to skip
     * that step; {@code related} are in the cluster from the start, for customize to select.
     */
    public Checker.Report check(JsonNode target, JsonNode updatedTarget, List<? extends JsonNode> related) {
        Simulation simulation = new Simulation(spec, hooks, clock);
        related.forEach(simulation.store()::create);
        ObjectRef ref = simulation.create(target);
        Simulation.Run created = converge(simulation, ref, false, "create");
        if (created.passes().stream().noneMatch(pass -> pass.outcome() == CompositeSimulator.Outcome.APPLIED)) {
            breaches.add(new Breach("no-progress", "no sync call succeeded, so the rest of the lifecycle was not checked"));
            return report(simulation);
        }
        converge(simulation, ref, true, "converge");
        repeat(simulation, ref);
        RelatedChecks.change(simulation, step -> {
            omissions.clear();
            return converge(simulation, ref, true, step);
        }).ifPresent(breaches::add);
        if (updatedTarget != null) {
            simulation.edit(updatedTarget);
            converge(simulation, ref, true, "spec change");
        }
        simulation.delete(ref);
        Simulation.Run deletion = converge(simulation, ref, true, "delete");
        if (simulation.store().get(ref).isPresent()) {
            breaches.add(new Breach("never-finalized", "the target is still there after " + deletion.passes().size()
                    + " finalize calls; its finalizers are " + simulation.store().get(ref).orElseThrow().at("/metadata/finalizers")));
        }
        return report(simulation);
    }

    private Checker.Report report(Simulation simulation) {
        if (spec.hooks().containsKey("customize")) {
            breaches.addAll(RelatedChecks.of(simulation.simulator().customize(), spec.hooks().get("customize").timeout()));
        }
        return new Checker.Report(List.copyOf(breaches), calls + RelatedChecks.answeredCalls(simulation.simulator().customize()));
    }

    private Simulation.Run converge(Simulation simulation, ObjectRef ref, boolean settle, String step) {
        int before = simulation.history().size();
        Simulation.Run run = simulation.converge(ref, maxPasses, settle);
        simulation.history().subList(before, simulation.history().size()).forEach(pass -> {
            inspect(pass);
            if (pass.call() != null) {
                breaches.addAll(Checker.needless(pass, step));
            }
        });
        boolean stillWriting = !run.passes().isEmpty() && run.last().outcome() == CompositeSimulator.Outcome.APPLIED;
        if (!run.converged() && stillWriting && !step.equals("delete")) {
            breaches.add(new Breach("hot-loop", "after " + step + ", " + maxPasses + " syncs in a row still changed something"
                    + Checker.changeOf(run)));
        }
        return run;
    }

    private void inspect(CompositeSimulator.Pass pass) {
        if (pass.call() == null) {
            return;
        }
        calls++;
        breaches.addAll(CallInspection.inspectDecorator(pass.call(), spec.hooks().get(pass.call().hook()).timeout()));
        omissions.inspect(pass.call(), pass.call().request().path("object"), breaches);
    }

    /** The same request twice, then with its keys in another order: the same answer every time. */
    private void repeat(Simulation simulation, ObjectRef ref) {
        ObjectNode target = simulation.store().get(ref).orElseThrow();
        CompositeSimulator.HookCall first = simulation.simulator().call(target);
        CompositeSimulator.HookCall again = simulation.simulator().call(target);
        calls += 2;
        if (first.response() == null || !first.succeeded()) {
            return;
        }
        if (again.response() != null && !first.response().equals(again.response())) {
            breaches.add(new Breach("non-deterministic", "the same request twice gave two answers; first difference at "
                    + Checker.firstDifference(first.response(), again.response(), "")));
        }
        HookClient.Reply reply = hooks.call(first.hook(), Checker.writeAsIs(Checker.shuffle(first.request(), new Random(7))));
        calls++;
        if (reply.status() == 200) {
            JsonNode answer = Json.parse(reply.body());
            if (!answer.equals(first.response())) {
                breaches.add(new Breach("non-deterministic", "the same request with its keys in another order gave another answer;"
                        + " first difference at " + Checker.firstDifference(first.response(), answer, "")));
            }
        }
    }

}
