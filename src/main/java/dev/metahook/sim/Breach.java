package dev.metahook.sim;

/** One way a hook breaks Metacontroller's contract, found by {@link Checker}: what kind, and the details. */
public record Breach(String kind, String detail) {

    @Override
    public String toString() {
        return kind + ": " + detail;
    }
}
