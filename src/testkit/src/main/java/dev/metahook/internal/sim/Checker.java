package dev.metahook.internal.sim;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.api.ChildId;
import dev.metahook.internal.contract.Breach;
import dev.metahook.internal.wire.CanonicalJson;
import dev.metahook.internal.wire.Json;
import dev.metahook.testkit.CheckReport;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;

/**
 * Drives a hook through a parent's whole life under the simulator (create, converge, the same input
 * again, the same input in another key order, a related object deleted and put back, a spec change,
 * delete and finalize) and lists every breach of Metacontroller's contract it sees. No breaches means
 * the hook is safe to run. A DecoratorController's target lives the same life, its attachments
 * counting as children.
 */
public final class Checker {
    private final ControllerSpec spec;
    private final HookClient hooks;
    private final Clock clock;
    private final int maxPasses;
    private final Versions versions;
    /** Each breach once, by rule and message, where it was first found. */
    private final Map<Breach, CheckReport.Breach> breaches = new LinkedHashMap<>();
    /** Hook calls and child writes by phase, in the order the phases first ran. */
    private final Map<Phase, Counts> phases = new LinkedHashMap<>();
    private final Omissions omissions;
    private int calls;
    private CallRates rates;
    private String owner = "";
    private boolean conflicted;

    /** A check on the newest supported Kubernetes and Metacontroller. */
    public Checker(ControllerSpec spec, HookClient hooks, Clock clock, int maxPasses) {
        this(spec, hooks, clock, maxPasses, Versions.NEWEST);
    }

    /** A check whose API server stores objects as {@code versions}' Kubernetes does, under that Metacontroller. */
    public Checker(ControllerSpec spec, HookClient hooks, Clock clock, int maxPasses, Versions versions) {
        this.spec = spec;
        this.hooks = hooks;
        this.clock = clock;
        this.maxPasses = maxPasses;
        this.versions = versions;
        this.omissions = new Omissions(spec.decorator() ? "attachments" : "children");
    }

    /** A breach of the whole run, or of a step that is not one call. */
    private void add(Breach breach, String hook, Phase phase) {
        add(breach, hook, owner, phase, 0);
    }

    private void add(Breach breach, String hook, String object, Phase phase, int call) {
        breaches.putIfAbsent(breach, new CheckReport.Breach(breach.kind(), hook, object, phase.toString(), call, breach.detail(),
                "Kubernetes " + versions.kubernetes()));
    }

    private void count(Phase phase, Counts counts) {
        phases.merge(phase, counts, Counts::plus);
    }

    /** Runs the lifecycle; {@code updatedParent} is the spec change, or null to skip that step. */
    public CheckReport check(JsonNode parent, JsonNode updatedParent) {
        return check(parent, updatedParent, List.of());
    }

    /** Runs the lifecycle with {@code related} objects in the cluster from the start, for customize to select. */
    public CheckReport check(JsonNode parent, JsonNode updatedParent, List<? extends JsonNode> related) {
        Simulation simulation = new Simulation(spec, hooks, clock, versions);
        related.forEach(simulation.store()::create);
        ChildId ref = simulation.create(parent);
        owner = Ids.text(ref);
        if (neverStarts(Phase.CREATE)) {
            return report(simulation);
        }
        Simulation.Run created = converge(simulation, ref, false, Phase.CREATE, "create");
        boolean unserved = breaches.values().stream().anyMatch(breach -> breach.kind().equals("unserved"));
        if (!unserved && created.passes().stream().noneMatch(pass -> pass.outcome() == CompositeSimulator.Outcome.APPLIED)) {
            add(new Breach("no-progress", notSelected(simulation, parent)
                    .orElse("no sync call succeeded, so the rest of the lifecycle was not checked")), "sync", Phase.CREATE);
            return report(simulation);
        }
        if (unserved && created.passes().stream().noneMatch(Checker::calledSync)) {
            // customize asked for a resource not served: no sync or finalize is ever called, and the rest would show nothing more
            return report(simulation);
        }
        return rest(simulation, ref, updatedParent);
    }

    /**
     * Runs the rest of the lifecycle from the state a request shows (a body Metacontroller sent, as
     * its debug log prints it): its parent and children stored as they were, then converge, the
     * same request again, the spec change, delete and finalize; for a parent being deleted, the
     * rest of its teardown.
     */
    public CheckReport resume(JsonNode request, JsonNode updatedParent, List<? extends JsonNode> related) {
        Simulation simulation = new Simulation(spec, hooks, clock, versions);
        related.forEach(simulation.store()::create);
        ChildId ref = simulation.create(request.path("parent"));
        owner = Ids.text(ref);
        request.path("children").forEach(group -> group.forEach(child -> simulation.store().create(child)));
        if (neverStarts(Phase.CONVERGE)) {
            return report(simulation);
        }
        if (!request.path("parent").path("metadata").hasNonNull("deletionTimestamp")) {
            return rest(simulation, ref, updatedParent);
        }
        finalize(simulation, ref);
        return report(simulation);
    }

    private CheckReport rest(Simulation simulation, ChildId ref, JsonNode updatedParent) {
        Simulation.Run converged = converge(simulation, ref, true, Phase.CONVERGE, "converge");
        if (converged.converged() && simulation.store() instanceof ObjectStore) {
            int customized = RelatedChecks.answeredCalls(simulation.simulator().customize());
            rates = CallRates.measure(simulation, ref, updatedParent, pass -> inspect(simulation, pass, Phase.AT_REST, "at rest"));
            count(Phase.AT_REST, new Counts(RelatedChecks.answeredCalls(simulation.simulator().customize()) - customized, 0));
            count(Phase.STALLED, rates.counts());
        }
        repeat(simulation, ref);
        RelatedChecks.change(simulation, step -> {
            omissions.clear();
            return converge(simulation, ref, true, Phase.RELATED, step);
        }).ifPresent(breach -> add(breach, "sync", Phase.RELATED));
        if (updatedParent != null) {
            simulation.edit(ref, updatedParent);
            simulation.writer().arm();
            int conflictsBefore = conflicts(simulation);
            Simulation.Run changed = converge(simulation, ref, true, Phase.CHANGE, "spec change");
            if (conflicts(simulation) > conflictsBefore && !changed.converged()) {
                add(new Breach("conflict", "after the spec change met a 409 Conflict (another writer changed "
                        + simulation.writer().written().stream().map(Ids::text).toList() + " while the hook answered), the hook did not converge"
                        + changeOf(changed)), "sync", Phase.CONFLICT);
            }
        }
        if (simulation.simulator() instanceof DecoratorSimulator decorator) {
            stopsMatching(simulation, decorator, ref);
        }
        simulation.delete(ref);
        finalize(simulation, ref);
        return report(simulation);
    }

    /**
     * A decorator's target changed so that the selectors no longer select it (when one label or
     * annotation can do that): Metacontroller finalizes it when the decorator has a finalize hook (the
     * attachments the answer leaves out go, the finalizer goes once it says done) and then leaves it
     * alone; attachments kept then are never synced again. Then the change is undone, and the target
     * is decorated again.
     */
    private void stopsMatching(Simulation simulation, DecoratorSimulator decorator, ChildId ref) {
        ObjectNode target = simulation.store().get(ref).orElseThrow();
        Optional<DecoratorSelector.Change> change = decorator.unmatched(target);
        if (change.isEmpty() || !decorator.selects(target)) {
            return;
        }
        String step = "target unselected (" + change.get().description() + ")";
        simulation.store().update(change.get().object());
        Simulation.Run run = converge(simulation, ref, true, Phase.UNSELECTED, step);
        ObjectNode after = simulation.store().get(ref).orElseThrow();
        if (spec.hasFinalize()) {
            if (decorator.watches(after)) {
                add(new Breach("never-finalized", "the " + step + " still has the decorator's finalizer after "
                        + run.passes().size() + " finalize calls" + lastStatus(simulation, ref)), "finalize", Phase.UNSELECTED);
            } else if (!decorator.attachments(after).isEmpty()) {
                add(new Breach("kept-attachments", "finalize for the " + step + " said finalized and kept "
                        + decorator.attachments(after).stream().map(Ids::of).map(Ids::text).toList() + ": Metacontroller leaves them there,"
                        + " never updated or deleted again until the target itself is deleted"), "finalize", Phase.UNSELECTED);
            }
        }
        simulation.store().update(change.get().undone(after, target));
        omissions.clear();
        converge(simulation, ref, true, Phase.SELECTED_AGAIN, "target selected again");
    }

    /**
     * A resource Metacontroller must find to start the controller and does not ({@link ControllerStart}): it never
     * starts it and calls no hook for any parent. One breach per such resource.
     */
    private boolean neverStarts(Phase phase) {
        List<Breach> failures = ControllerStart.failures(spec, versions.metacontroller());
        failures.forEach(breach -> add(breach, "sync", phase));
        return !failures.isEmpty();
    }

    /**
     * The children of a failed answer whose kind the API server does not serve: one breach per kind, naming the children
     * of that kind the answer had.
     */
    private void unserved(CompositeSimulator.Pass pass, Phase phase, int call) {
        Map<String, List<ChildId>> byKind = new LinkedHashMap<>();
        String namespace = pass.call().request().path(spec.decorator() ? "object" : "parent").path("metadata").path("namespace").asText("");
        for (JsonNode child : pass.call().response().path(spec.decorator() ? "attachments" : "children")) {
            ChildId named = Ids.of(child);
            ChildId id = named.namespace().isEmpty() ? new ChildId(named.apiVersion(), named.kind(), namespace, named.name()) : named;
            // a child without apiVersion or kind fails discovery too, but its breach says so (missing-apiVersion, missing-kind)
            if (!id.apiVersion().isEmpty() && !id.kind().isEmpty() && !spec.discovery().servesKind(id.apiVersion(), id.kind())) {
                byKind.computeIfAbsent(id.kind() + " " + id.apiVersion(), kind -> new ArrayList<>()).add(id);
            }
        }
        byKind.forEach((kind, children) -> {
            ChildId first = children.get(0);
            List<String> served = spec.discovery().versionsOf(first.kind());
            add(new Breach("unserved", pass.call().hook() + " answered " + children.stream().map(Ids::text).toList() + " of apiVersion "
                    + first.apiVersion() + ", a kind the API server does not serve" + (served.isEmpty() ? "" : " (it serves " + first.kind()
                    + " as " + String.join(", ", served) + ")") + ": Metacontroller's discovery finds no resource for it, so every sync of"
                    + " the parent fails (" + pass.error() + "; a SyncError event) and is retried with backoff, creating none of them while"
                    + " the other children and the status are written. The API server here serves the built-in kinds and the"
                    + " CustomResourceDefinitions given with the controller: give the one that defines it, or fix the apiVersion or kind"),
                    pass.call().hook(), Ids.text(first), phase, call);
        });
    }

    /** Whether a pass called the sync or finalize hook, not customize alone. */
    private static boolean calledSync(CompositeSimulator.Pass pass) {
        return pass.call() != null && !pass.call().hook().equals("customize");
    }

    /** For a decorator's target its selectors do not select: that Metacontroller never calls the hook for it. */
    private Optional<String> notSelected(Simulation simulation, JsonNode target) {
        if (simulation.simulator() instanceof DecoratorSimulator decorator && !decorator.selects(target)) {
            return Optional.of("the DecoratorController's resources do not select this " + target.path("kind").asText() + " ("
                    + decorator.describeSelector(target) + "), so Metacontroller never calls the hook for it and nothing was checked");
        }
        if (simulation.simulator() instanceof CompositeSimulator composite && !composite.selects(target)) {
            return Optional.of("the CompositeController's parentResource." + composite.describeSelector() + " does not select this "
                    + target.path("kind").asText() + " (" + labels(target) + "), so Metacontroller never calls the hook for it and nothing was checked");
        }
        return Optional.empty();
    }

    private static String labels(JsonNode object) {
        JsonNode labels = object.path("metadata").path("labels");
        return labels.size() == 0 ? "no labels" : "labels " + CanonicalJson.string(labels);
    }

    private void finalize(Simulation simulation, ChildId ref) {
        Simulation.Run deletion = converge(simulation, ref, true, Phase.DELETE, "delete");
        if (simulation.store().get(ref).isPresent()) {
            add(new Breach("never-finalized", "the " + (spec.decorator() ? "target" : "parent") + " is still there after "
                    + deletion.passes().size() + " finalize calls" + lastStatus(simulation, ref)), "finalize", Phase.DELETE);
        }
    }

    /** The breaches, with those of the customize steps (a related rule never exercised), and the calls counted. */
    private CheckReport report(Simulation simulation) {
        if (simulation.simulator() instanceof CompositeSimulator composite) {
            for (String path : composite.prunedStatus()) {
                add(new Breach("pruned-status", "the API server drops " + path + " from the parent's status: the parent's"
                        + " CRD does not declare it, so nobody reading the parent sees it (declare it in the status schema, or mark it"
                        + " x-kubernetes-preserve-unknown-fields)"), "sync", Phase.LIFE);
            }
        }
        if (spec.hooks().containsKey("customize")) {
            RelatedChecks.of(simulation.simulator().customize(), spec.hooks().get("customize").timeout(), spec.relatedRequired())
                    .forEach(breach -> add(breach, "customize", Phase.LIFE));
        }
        List<CheckReport.Phase> counted = new ArrayList<>();
        // the stalled cluster is a fork measured right after converging: listed last, after the life itself
        phases.forEach((phase, counts) -> {
            if (phase != Phase.STALLED) {
                counted.add(new CheckReport.Phase(phase.toString(), counts.calls(), counts.writes()));
            }
        });
        Optional.ofNullable(phases.get(Phase.STALLED))
                .ifPresent(counts -> counted.add(new CheckReport.Phase(Phase.STALLED.toString(), counts.calls(), counts.writes())));
        int total = counted.stream().mapToInt(CheckReport.Phase::calls).sum();
        return new CheckReport(List.copyOf(breaches.values()), total, counted,
                rates == null ? null : new CheckReport.Rates(rates.atRest(), rates.stalled(), rates.stalledDoing()), versions.toString());
    }

    private static int conflicts(Simulation simulation) {
        return (int) simulation.history().stream().filter(pass -> pass.error() != null
                && pass.error().contains("the object has been modified")).count();
    }

    /**
     * After a rollout, the parent's Updated condition must say it reached the latest revision. When it waits for a
     * "missing" child that is there, the Metacontroller checked is the one that stalls: its own finding.
     */
    private void rollout(Simulation simulation, ChildId ref, Phase phase, String step) {
        simulation.store().get(ref).ifPresent(parent -> {
            for (JsonNode condition : parent.path("status").path("conditions")) {
                if ("Updated".equals(condition.path("type").asText()) && !"True".equals(condition.path("status").asText())) {
                    String said = condition.path("reason").asText() + ": " + condition.path("message").asText();
                    add(stalledByMetacontroller(simulation, parent, said).map(child -> stall(step, child, said))
                            .orElseGet(() -> new Breach("rollout-stuck", "after " + step + ", the rollout never reached the latest revision: the"
                                    + " parent's Updated condition is " + said)), "sync", phase);
                }
            }
        });
    }

    /** The child a stalled rollout calls missing while the cluster has it, when this Metacontroller cannot find namespaced children. */
    private Optional<String> stalledByMetacontroller(Simulation simulation, JsonNode parent, String said) {
        String prefix = "RolloutWaiting: missing child ";
        if (!versions.metacontroller().stallsNamespacedRollouts() || !said.startsWith(prefix)) {
            return Optional.empty();
        }
        String child = said.substring(prefix.length());
        String namespace = parent.path("metadata").path("namespace").asText("");
        boolean there = simulation.store().all().stream().anyMatch(object -> child.equals(object.path("kind").asText() + " "
                + object.path("metadata").path("name").asText()) && namespace.equals(object.path("metadata").path("namespace").asText("")));
        return there && !namespace.isEmpty() ? Optional.of(child) : Optional.empty();
    }

    private Breach stall(String step, String child, String said) {
        return new Breach("metacontroller-stalls-rollout", "after " + step + ", Metacontroller " + versions.metacontroller()
                + " (every release from " + MetacontrollerVersion.ROLLOUT_LOOKUP_BY_NAME + " on) moved " + child + " to the latest"
                + " revision and then never finds it: it looks the child up by bare name among observed children keyed"
                + " namespace/name. The parent stays Updated=False " + said + ", and the other children are never rolled."
                + " The hook is not at fault; to roll on these releases use updateStrategy OnDelete or Recreate for that type,"
                + " or a cluster-scoped child type, or Metacontroller v4.10.2 or older");
    }

    private Simulation.Run converge(Simulation simulation, ChildId ref, boolean settle, Phase phase, String step) {
        int before = simulation.history().size();
        int customized = RelatedChecks.answeredCalls(simulation.simulator().customize());
        conflicted = false;
        // converging right after the create has no event of its own: the workloads' first step starts it
        Simulation.Run run = simulation.converge(ref, maxPasses, settle, phase != Phase.CONVERGE);
        simulation.history().subList(before, simulation.history().size()).forEach(pass -> inspect(simulation, pass, phase, step));
        count(phase, new Counts(RelatedChecks.answeredCalls(simulation.simulator().customize()) - customized, 0));
        boolean stillWriting = !run.passes().isEmpty() && run.last().outcome() == CompositeSimulator.Outcome.APPLIED;
        if (!run.converged() && stillWriting && phase != Phase.DELETE) {
            add(new Breach("hot-loop", "after " + step + ", " + maxPasses + " syncs in a row still changed something"
                    + changeOf(run)), "sync", conflicted ? Phase.CONFLICT : phase);
        }
        if (run.converged() && settle && phase != Phase.DELETE && RollingUpdate.anyRolling(spec)) {
            rollout(simulation, ref, phase, step);
        }
        return run;
    }

    /**
     * One pass of a step: its calls counted in the step's phase (in {@code 409} after a sync of the spec change met a
     * conflict: the retries up to the one that applied), its child writes, and its breaches, each where it was found.
     */
    private void inspect(Simulation simulation, CompositeSimulator.Pass pass, Phase stepPhase, String step) {
        if (pass.call() == null) {
            return;
        }
        Phase phase = conflicted && stepPhase == Phase.CHANGE ? Phase.CONFLICT : stepPhase;
        if (pass.error() != null && pass.error().contains("the object has been modified")) {
            conflicted = true;
        } else if (pass.outcome() == CompositeSimulator.Outcome.APPLIED) {
            conflicted = false;
        }
        int first = calls + 1;
        calls += Math.max(1, pass.calls().size());
        count(phase, new Counts(Math.max(1, pass.calls().size()), simulation.writes(pass)));
        pass.needlessUpdates().forEach(update -> add(needless(pass, step, update), pass.call().hook(), Ids.text(update.child()), phase, first));
        // a decorator's sync names its target "object", every customize request "parent"
        JsonNode owner = pass.call().request().path(spec.decorator() && !pass.call().hook().equals("customize") ? "object" : "parent");
        String ownerRef = Ids.text(Ids.of(owner));
        int number = first;
        boolean[] selectorFound = {false};
        for (CompositeSimulator.HookCall call : pass.calls().isEmpty() ? List.of(pass.call()) : pass.calls()) {
            int n = number++;
            CallInspection.inspect(call, spec.hooks().get(call.hook()).timeout(), (child, breach) -> {
                selectorFound[0] |= breach.kind().equals("selector");
                add(breach, call.hook(), child == null ? ownerRef : Ids.text(child), phase, n);
            });
        }
        if (pass.outcome() == CompositeSimulator.Outcome.FAILED && pass.error() != null && pass.error().contains("discovery: can't find kind")) {
            unserved(pass, phase, first);
        }
        // the sync Metacontroller aborts for a child's labels is the same cause as the child's selector breach
        if (pass.outcome() == CompositeSimulator.Outcome.FAILED && pass.error() != null && pass.call().reply().status() == 200
                && pass.error().startsWith("labels") && !selectorFound[0]) {
            add(new Breach("selector", pass.error()), pass.call().hook(), ownerRef, phase, first);
        }
        omissions.inspect(pass.call(), owner, (child, breach) -> add(breach, pass.call().hook(), Ids.text(child), phase, first));
    }

    /**
     * An update the answer did not ask for (the child is what was last applied) is sent again on
     * every call, whether or not the API server then stores anything new.
     */
    static List<Breach> needless(CompositeSimulator.Pass pass, String step) {
        return pass.needlessUpdates().stream().map(update -> needless(pass, step, update)).toList();
    }

    private static Breach needless(CompositeSimulator.Pass pass, String step, ChildUpdate update) {
        return new Breach("needless-update", pass.call().hook() + " (" + step
                + ") answered " + Ids.text(update.child()) + " as last applied, yet Metacontroller would update it on every call: what it"
                + " writes differs from what the API server stores at " + update.change());
    }

    /**
     * The same request twice, and once with its keys in another order: the answers must not differ in
     * anything Metacontroller acts on ({@link ChildOrder}). Skipped for a decorator's target that
     * Metacontroller no longer syncs.
     */
    private void repeat(Simulation simulation, ChildId ref) {
        ObjectNode parent = simulation.store().get(ref).orElseThrow();
        if (simulation.simulator() instanceof DecoratorSimulator decorator && !decorator.watches(parent)) {
            return;
        }
        int customized = RelatedChecks.answeredCalls(simulation.simulator().customize());
        CompositeSimulator.HookCall first = simulation.simulator().call(parent);
        CompositeSimulator.HookCall again = simulation.simulator().call(parent);
        Duration timeout = spec.hooks().get(first.hook()).timeout();
        for (CompositeSimulator.HookCall call : List.of(first, again)) {
            int n = ++calls;
            CallInspection.inspect(call, timeout, (child, breach) -> add(breach, call.hook(), child == null ? owner : Ids.text(child),
                    Phase.REPEAT, n));
        }
        if (first.response() != null && again.response() != null) {
            ChildOrder.difference(spec, first.response(), again.response()).ifPresent(difference ->
                    add(new Breach("non-deterministic", "the same request twice gave two answers: " + difference), first.hook(), owner,
                            Phase.REPEAT, calls));
        }
        JsonNode shuffled = shuffle(first.request(), new Random(7));
        HookClient.Reply reply = hooks.call(first.hook(), writeAsIs(shuffled));
        int shuffledCall = ++calls;
        List<Breach> transport = new ArrayList<>();
        boolean ok = CallInspection.reply(first.hook(), reply, timeout, transport);
        transport.forEach(breach -> add(breach, first.hook(), owner, Phase.REPEAT, shuffledCall));
        if (ok && first.response() != null) {
            JsonNode answer = Json.parse(reply.body());
            ChildOrder.difference(spec, first.response(), answer).ifPresent(difference -> add(new Breach("non-deterministic",
                    "the same request with its keys in another order gave another answer: " + difference), first.hook(), owner, Phase.REPEAT, calls));
        }
        count(Phase.REPEAT, new Counts(3 + RelatedChecks.answeredCalls(simulation.simulator().customize()) - customized, 0));
    }

    static byte[] writeAsIs(JsonNode tree) {
        try {
            return Json.mapper().writeValueAsBytes(tree);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The same tree with the fields of every object in a random order: what no hook may depend on. */
    public static JsonNode shuffle(JsonNode node, Random random) {
        if (node.isObject()) {
            List<String> names = new ArrayList<>();
            node.fieldNames().forEachRemaining(names::add);
            Collections.shuffle(names, random);
            ObjectNode out = Json.object();
            names.forEach(name -> out.set(name, shuffle(node.get(name), random)));
            return out;
        }
        if (node.isArray()) {
            ArrayNode out = Json.mapper().createArrayNode();
            node.forEach(item -> out.add(shuffle(item, random)));
            return out;
        }
        return node;
    }

    static String firstDifference(JsonNode a, JsonNode b, String pointer) {
        if (a.isObject() && b.isObject()) {
            Set<String> names = new LinkedHashSet<>();
            a.fieldNames().forEachRemaining(names::add);
            b.fieldNames().forEachRemaining(names::add);
            for (String name : names) {
                if (!a.path(name).equals(b.path(name))) {
                    return firstDifference(a.path(name), b.path(name), pointer + "/" + name);
                }
            }
        } else if (a.isArray() && b.isArray() && a.size() == b.size()) {
            for (int i = 0; i < a.size(); i++) {
                if (!a.get(i).equals(b.get(i))) {
                    return firstDifference(a.get(i), b.get(i), pointer + "/" + i);
                }
            }
        }
        return (pointer.isEmpty() ? "/" : pointer) + " (" + shorten(a) + " vs " + shorten(b) + ")";
    }

    static String changeOf(Simulation.Run run) {
        List<CompositeSimulator.Pass> passes = run.passes();
        if (passes.size() < 2 || passes.get(passes.size() - 1).call() == null || passes.get(passes.size() - 2).call() == null) {
            return "";
        }
        JsonNode last = passes.get(passes.size() - 1).call().response();
        JsonNode before = passes.get(passes.size() - 2).call().response();
        if (last == null || before == null || last.equals(before)) {
            return "";
        }
        return "; the answer changes at " + firstDifference(before, last, "");
    }

    private String lastStatus(Simulation simulation, ChildId ref) {
        return simulation.store().get(ref).map(object -> spec.decorator()
                ? "; its finalizers are " + object.at("/metadata/finalizers")
                : "; its status is " + shorten(object.path("status"))).orElse("");
    }

    private static String shorten(JsonNode node) {
        return Excerpt.json(node);
    }
}
