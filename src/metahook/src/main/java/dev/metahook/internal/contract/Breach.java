package dev.metahook.internal.contract;

/**
 * One broken rule of Metacontroller's contract: the rule's name ({@code selector}, {@code missing-kind},
 * ...) and what broke it. The server refuses an answer with it, {@code check} reports it; both by the
 * same name.
 */
public record Breach(String kind, String detail) {

    @Override
    public String toString() {
        return kind + ": " + detail;
    }
}
