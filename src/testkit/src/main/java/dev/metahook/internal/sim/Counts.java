package dev.metahook.internal.sim;

/** Hook calls (sync, finalize and customize) and the child (attachment) writes Metacontroller sent. */
public record Counts(int calls, int writes) {
    public static final Counts NONE = new Counts(0, 0);

    public Counts plus(Counts other) {
        return new Counts(calls + other.calls, writes + other.writes);
    }
}
