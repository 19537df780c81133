package dev.metahook.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * A small cluster for one controller: the store, the simulator (of a CompositeController or a
 * DecoratorController, as the spec says), and the loop that syncs a parent (or target) until nothing
 * changes any more, the way events keep Metacontroller syncing after each write.
 */
public final class Simulation {
    private final Cluster store;
    private final Simulator simulator;
    private final List<CompositeSimulator.Pass> history = new ArrayList<>();

    public Simulation(ControllerSpec spec, HookClient hooks, Clock clock) {
        this(spec, hooks, new ObjectStore(clock));
    }

    /** A simulation against any cluster, a real API server included. */
    public Simulation(ControllerSpec spec, HookClient hooks, Cluster cluster) {
        this.store = cluster;
        this.simulator = spec.decorator() ? new DecoratorSimulator(spec, store, hooks) : new CompositeSimulator(spec, store, hooks);
    }

    public Cluster store() {
        return store;
    }

    public Simulator simulator() {
        return simulator;
    }

    /** Every pass run so far, in order. */
    public List<CompositeSimulator.Pass> history() {
        return List.copyOf(history);
    }

    /** Creates the parent, as {@code kubectl apply} would. */
    public ObjectRef create(JsonNode parent) {
        return ObjectRef.of(store.create(parent));
    }

    /** Changes the parent's spec (metadata and status stay the server's). */
    public void edit(JsonNode parent) {
        ObjectNode current = store.get(ObjectRef.of(parent)).orElseThrow();
        ObjectNode edited = current.deepCopy();
        edited.set("spec", parent.path("spec").deepCopy());
        store.update(edited);
    }

    /** Deletes the parent; with Metacontroller's finalizer on it, it stays until finalize says done. */
    public void delete(ObjectRef parent) {
        store.delete(parent);
    }

    /** One sync pass, then the workloads settle if asked. */
    public CompositeSimulator.Pass pass(ObjectRef parent, boolean settle) {
        CompositeSimulator.Pass pass = simulator.sync(parent);
        history.add(pass);
        if (settle) {
            WorkloadControllers.settle(store);
        }
        return pass;
    }

    /** How a run of passes ended. */
    public record Run(List<CompositeSimulator.Pass> passes, boolean converged) {
        public CompositeSimulator.Pass last() {
            return passes.get(passes.size() - 1);
        }
    }

    /**
     * Syncs until a pass changes nothing (a fixed point), the parent is gone or ignored, or {@code maxPasses}
     * ran. A failed call changes nothing either, but is no fixed point: Metacontroller retries it.
     */
    public Run converge(ObjectRef parent, int maxPasses, boolean settle) {
        List<CompositeSimulator.Pass> passes = new ArrayList<>();
        for (int i = 0; i < maxPasses; i++) {
            long before = store.writes();
            CompositeSimulator.Pass pass = pass(parent, settle);
            passes.add(pass);
            if (pass.outcome() == CompositeSimulator.Outcome.PARENT_GONE || pass.outcome() == CompositeSimulator.Outcome.IGNORED) {
                return new Run(passes, true);
            }
            if (store.writes() == before && pass.outcome() == CompositeSimulator.Outcome.APPLIED) {
                return new Run(passes, true);
            }
        }
        return new Run(passes, false);
    }
}
