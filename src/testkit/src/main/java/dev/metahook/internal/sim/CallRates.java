package dev.metahook.internal.sim;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahook.api.ChildId;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * How often Metacontroller calls a hook, in sync and finalize calls in the busiest simulated minute:
 * at rest (five simulated minutes after the parent converged, nothing changing but resyncs) and while
 * stalled (the same cluster forked with broken workloads, pods never ready and Jobs failing: the spec
 * change, if any, then the deletion, five simulated minutes each; the busier counts). A hook that
 * asks for a resync every second, or one whose teardown waits on a Job, shows here. {@code counts} are the
 * sync and finalize calls and the child writes of the stalled runs.
 */
public record CallRates(int atRest, int stalled, String stalledDoing, Counts counts) {
    static final Duration WATCH = Duration.ofMinutes(5);
    static final int MAX_PASSES = 500;

    /**
     * Measures a converged parent; the passes at rest go to {@code atRest} (they are the hook's calls
     * too), and the simulation is left as it was but for the simulated time gone by.
     */
    static CallRates measure(Simulation simulation, ChildId ref, JsonNode updatedParent, Consumer<CompositeSimulator.Pass> atRest) {
        Simulation stalled = simulation.fork(true);
        Simulation.Run resting = simulation.idle(ref, WATCH, MAX_PASSES);
        resting.passes().forEach(atRest);
        int rate = 0;
        Counts counts = Counts.NONE;
        String doing = "nothing to wait for";
        if (updatedParent != null) {
            stalled.edit(ref, updatedParent);
            Simulation.Run changed = stalled.idle(ref, WATCH, MAX_PASSES);
            counts = counts.plus(changed.counts());
            rate = changed.busiestMinute();
            doing = "after the spec change";
        }
        stalled.delete(ref);
        Simulation.Run teardown = stalled.idle(ref, WATCH, MAX_PASSES);
        counts = counts.plus(teardown.counts());
        if (teardown.busiestMinute() >= rate) {
            rate = teardown.busiestMinute();
            doing = "deleting";
        }
        return new CallRates(resting.busiestMinute(), rate, doing + ", pods never ready and Jobs failing", counts);
    }

    @Override
    public String toString() {
        return "calls per simulated minute: " + atRest + " at rest, " + stalled + " while stalled (" + stalledDoing + ")";
    }
}
