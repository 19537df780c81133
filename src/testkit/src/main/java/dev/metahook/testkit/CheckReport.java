package dev.metahook.testkit;

import java.util.List;

/** What {@link HookTester#check} found: one line per breach of Metacontroller's contract, as {@code check} prints them. */
public record CheckReport(List<String> breaches, int calls) {

    public CheckReport {
        breaches = List.copyOf(breaches);
    }

    public boolean clean() {
        return breaches.isEmpty();
    }

    @Override
    public String toString() {
        return clean() ? "clean (" + calls + " hook calls)" : breaches.size() + " breaches in " + calls + " hook calls: " + breaches;
    }
}
