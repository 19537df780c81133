package dev.metahook.testkit;

import java.util.List;

/**
 * What {@link HookTester#check} (and the {@code check} command) found: every breach of Metacontroller's
 * contract, typed; the hook calls in all; the hook calls and writes of each phase of the life, in the
 * order they ran; and how often the hook is called at rest and while stalled (null when not measured:
 * the parent never converged); and the versions checked ({@code Kubernetes 1.29-1.37, Metacontroller v4.17.2}). Where the runs on
 * several versions differ, the calls and writes of a phase, and the rates, are the most any of them made.
 * {@code check --format json} writes exactly this record, so a JSON report reads back into it with Jackson.
 */
public record CheckReport(List<Breach> breaches, int calls, List<Phase> phases, Rates rates, String versions) {

    public CheckReport {
        breaches = List.copyOf(breaches);
        phases = List.copyOf(phases);
    }

    /** A report without the versions checked, as reports were before they had them. */
    public CheckReport(List<Breach> breaches, int calls, List<Phase> phases, Rates rates) {
        this(breaches, calls, phases, rates, "");
    }

    public boolean clean() {
        return breaches.isEmpty();
    }

    /**
     * One broken rule of Metacontroller's contract.
     *
     * @param kind    the rule, as docs/testing-hooks.md lists them: {@code hot-loop}, {@code deletes-children}, ...
     * @param hook    {@code sync}, {@code finalize} or {@code customize}: the hook the breach is about
     * @param object  what it is about, {@code Kind namespace/name} (or {@code Kind name}): the child or attachment
     *                when it is about one, else the parent (a decorator's target)
     * @param phase   the phase of the life it was found in ({@link Phase#name()}), or {@code life} for what the whole
     *                run showed (a customize rule that never selected anything)
     * @param call    which hook call of the run showed it, counting from 1, or 0 when no one call did (a hot loop,
     *                a parent never finalized)
     * @param message what broke it, with the evidence
     * @param versions the Kubernetes minors it holds on, {@code Kubernetes 1.34-1.37}: a breach that holds on every minor
     *                 checked names them all, as the report's {@link CheckReport#versions()} begins
     */
    public record Breach(String kind, String hook, String object, String phase, int call, String message, String versions) {
        /** A breach without the versions it holds on, as breaches were before they had them. */
        public Breach(String kind, String hook, String object, String phase, int call, String message) {
            this(kind, hook, object, phase, call, message, "");
        }

        /** {@code kind: message}, as {@code check} prints it after {@code BREACH}. */
        @Override
        public String toString() {
            return kind + ": " + message;
        }
    }

    /**
     * One phase of the life ({@code create}, {@code converge}, {@code at rest}, {@code repeat}, {@code related},
     * {@code change}, {@code 409}, {@code unselected}, {@code selected again}, {@code delete}, {@code stalled}),
     * with the hook calls made in it (sync, finalize and customize) and Metacontroller's writes of children (or
     * attachments): creates, updates and deletes sent to the API server.
     */
    public record Phase(String name, int calls, int writes) {
    }

    /**
     * Sync and finalize calls in the busiest simulated minute: at rest (five minutes after converging) and while
     * stalled (pods never ready and Jobs failing), and what the stalled parent was doing then.
     */
    public record Rates(int atRest, int stalled, String stalledDoing) {
    }

    @Override
    public String toString() {
        return clean() ? "clean (" + calls + " hook calls)" : breaches.size() + " breaches in " + calls + " hook calls: " + breaches;
    }
}
