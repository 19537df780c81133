package dev.metahook.internal.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.api.ChildId;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A small cluster for one controller on a {@link VirtualClock}: the store, the simulator (of a
 * CompositeController or a DecoratorController, as the spec says), Metacontroller's work queue for
 * the parent (or target), the workload controllers stepping through their states, and the loop
 * that runs whatever is due next: a sync queued by a write (Metacontroller's own included), a
 * workload's next step, a retry after an error or a 429, a {@code resyncAfterSeconds} or periodic
 * resync. Nothing sleeps: the clock jumps to the next event.
 */
public final class Simulation {
    /** Syncs in a row at one simulated instant after which {@link #idle} gives up: they only cause each other. */
    static final int SAME_INSTANT = 20;
    private final VirtualClock clock;
    private final Cluster store;
    private final ConcurrentWriter writer;
    private final Simulator simulator;
    private final WorkQueue queue;
    private final HookClient hooks;
    private final ControllerSpec spec;
    private final MetacontrollerVersion metacontroller;
    private WorkloadControllers workloads;
    private final List<CompositeSimulator.Pass> history = new ArrayList<>();
    private final List<Instant> times = new ArrayList<>();
    private final Map<CompositeSimulator.Pass, Integer> writes = new IdentityHashMap<>();

    /** A simulation whose virtual clock starts at {@code clock}'s time, on a whole second (as the API server writes times). */
    public Simulation(ControllerSpec spec, HookClient hooks, Clock clock) {
        this(spec, hooks, clock, Versions.NEWEST);
    }

    /** The same, its API server storing objects as {@code versions}' Kubernetes does, its Metacontroller that release. */
    public Simulation(ControllerSpec spec, HookClient hooks, Clock clock, Versions versions) {
        this(spec, hooks, new VirtualClock(clock.instant().truncatedTo(java.time.temporal.ChronoUnit.SECONDS)), versions);
    }

    private Simulation(ControllerSpec spec, HookClient hooks, VirtualClock clock, Versions versions) {
        this(spec, hooks, new ObjectStore(clock, versions.kubernetes()), clock, versions.metacontroller());
    }

    /** A simulation against any cluster, a real API server included. */
    public Simulation(ControllerSpec spec, HookClient hooks, Cluster cluster) {
        this(spec, hooks, cluster, new VirtualClock(Instant.now()), MetacontrollerVersion.NEWEST);
    }

    private Simulation(ControllerSpec spec, HookClient hooks, Cluster cluster, VirtualClock clock, MetacontrollerVersion metacontroller) {
        this.metacontroller = metacontroller;
        this.spec = spec;
        this.hooks = hooks;
        this.clock = clock;
        this.store = cluster;
        this.writer = new ConcurrentWriter(hooks, cluster);
        this.simulator = spec.decorator() ? new DecoratorSimulator(spec, store, writer)
                : new CompositeSimulator(spec, store, writer, metacontroller);
        this.queue = new WorkQueue(resyncPeriod(spec));
        this.workloads = new WorkloadControllers(clock, false);
    }

    /**
     * The same cluster as it is now, in a simulation of its own (a fresh Metacontroller, the same
     * hooks), its workload controllers {@code broken} or not. Only for the in-memory store.
     */
    public Simulation fork(boolean broken) {
        if (!(store instanceof ObjectStore objects)) {
            throw new IllegalStateException("only a simulation on the in-memory store can be forked");
        }
        VirtualClock forked = new VirtualClock(clock.instant());
        Simulation copy = new Simulation(spec, hooks, objects.copy(forked), forked, metacontroller);
        copy.workloads = new WorkloadControllers(forked, broken);
        return copy;
    }

    public Cluster store() {
        return store;
    }

    public Simulator simulator() {
        return simulator;
    }

    public VirtualClock clock() {
        return clock;
    }

    /** The other writer of the cluster, to make the next answered call meet a 409. */
    public ConcurrentWriter writer() {
        return writer;
    }

    /** Every pass run so far, in order. */
    public List<CompositeSimulator.Pass> history() {
        return List.copyOf(history);
    }

    /** When each pass of {@link #history()} ran, on the simulation's clock. */
    public List<Instant> times() {
        return List.copyOf(times);
    }

    /** The creates, updates and deletes of children (attachments) a pass of this simulation sent. */
    public int writes(CompositeSimulator.Pass pass) {
        return writes.getOrDefault(pass, 0);
    }

    /** Creates the parent, as {@code kubectl apply} would. */
    public ChildId create(JsonNode parent) {
        queue.add();
        ChildId ref = Ids.of(store.create(pruned(parent)));
        workloads.react(store);
        return ref;
    }

    /** The parent as the API server keeps it: pruned by its CRD's schema when that is known (apiVersion, kind and metadata kept). */
    private JsonNode pruned(JsonNode parent) {
        JsonNode schema = spec.parentSchema();
        if (schema == null || !parent.isObject()) {
            return parent;
        }
        ObjectNode copy = (ObjectNode) parent.deepCopy();
        for (String field : List.of("spec", "status")) {
            if (copy.has(field)) {
                SchemaPruning.prune(schema.at("/properties/" + field), copy.get(field), field);
            }
        }
        return copy;
    }

    /** Changes the spec of the parent {@code parent} names to its spec (metadata and status stay the server's). */
    public void edit(JsonNode parent) {
        edit(Ids.of(parent), parent);
    }

    /**
     * Changes the spec of the parent {@code ref} to {@code parent}'s, and its labels to {@code parent}'s when it has
     * any (a composite's {@code labelSelector} and a decorator's selectors then decide on them); the rest of the
     * metadata and the status stay the server's. {@code parent} names the same object; a namespace it leaves out is
     * the parent's.
     *
     * @throws IllegalArgumentException when it names another object
     */
    public void edit(ChildId ref, JsonNode parent) {
        ChildId named = Ids.of(parent);
        if (!Objects.equals(named.kind(), ref.kind()) || !Objects.equals(named.name(), ref.name())
                || !named.namespace().isEmpty() && !named.namespace().equals(ref.namespace())) {
            throw new IllegalArgumentException("the updated parent is " + Ids.text(named) + ", not the parent " + Ids.text(ref)
                    + ": a spec change edits the same object (the same kind, namespace and name)");
        }
        ObjectNode current = store.get(ref).orElseThrow();
        ObjectNode edited = current.deepCopy();
        edited.set("spec", pruned(parent).path("spec").deepCopy());
        JsonNode labels = parent.path("metadata").path("labels");
        if (labels.isObject()) {
            edited.withObjectProperty("metadata").set("labels", labels.deepCopy());
        }
        store.update(edited);
        workloads.react(store);
        queue.add();
    }

    /** Deletes the parent; with Metacontroller's finalizer on it, it stays until finalize says done. */
    public void delete(ChildId parent) {
        store.delete(parent);
        queue.add();
    }

    /** One sync pass, then the workloads settle all the way if asked. */
    public CompositeSimulator.Pass pass(ChildId parent, boolean settle) {
        CompositeSimulator.Pass pass = sync(parent);
        if (settle) {
            WorkloadControllers.settle(store, clock);
        }
        return pass;
    }

    /** How a run of passes ended, and the creates, updates and deletes of children (attachments) its passes sent. */
    public record Run(List<CompositeSimulator.Pass> passes, boolean converged, Duration took, List<Instant> times, int writes) {
        public Run(List<CompositeSimulator.Pass> passes, boolean converged) {
            this(passes, converged, Duration.ZERO, List.of(), 0);
        }

        /** The most sync and finalize calls that fell in one simulated minute of the run. */
        public int busiestMinute() {
            int most = 0;
            for (int first = 0; first < times.size(); first++) {
                int calls = 0;
                for (int i = first; i < times.size() && times.get(i).isBefore(times.get(first).plus(Duration.ofMinutes(1))); i++) {
                    calls += passes.get(i).calls().size();
                }
                most = Math.max(most, calls);
            }
            return most;
        }

        public CompositeSimulator.Pass last() {
            return passes.get(passes.size() - 1);
        }

        /** The sync and finalize calls the passes made (one per revision for rolling children). */
        public int calls() {
            return passes.stream().mapToInt(pass -> pass.calls().size()).sum();
        }

        /** The sync and finalize calls and the child writes of the run. */
        public Counts counts() {
            return new Counts(calls(), writes);
        }
    }

    /**
     * Runs what is due until the parent is at rest (or gone, or ignored: a decorator's target its
     * selectors no longer select): no sync queued, no retry waiting, and (when
     * {@code settle}) every workload at its end status; a {@code resyncAfterSeconds} is not waited
     * for. Converged when the last pass applied its answer (a failed call changes nothing, but is no
     * fixed point: Metacontroller retries it). Not converged when {@code maxPasses} syncs in a row ran
     * with nothing but Metacontroller moving in between (the answers keep changing what is written, or
     * keep failing), or ten times that many in all. The run starts with a sync, for whatever changed before
     * it (in the store, or on a real API server beside the simulation).
     */
    public Run converge(ChildId parent, int maxPasses, boolean settle) {
        return converge(parent, maxPasses, settle, true);
    }

    /**
     * The same; without {@code event}, only a sync already queued (the parent created, edited or deleted
     * through this simulation) starts the run, else the workloads' next step does: a step of the life right
     * after another, with nothing changed in between, gives Metacontroller nothing to sync for.
     */
    public Run converge(ChildId parent, int maxPasses, boolean settle, boolean event) {
        Instant start = clock.instant();
        List<CompositeSimulator.Pass> passes = new ArrayList<>();
        if (event) {
            queue.add();
        }
        int quiet = 0;
        while (passes.size() < maxPasses * 10) {
            if (queue.queued()) {
                if (quiet >= maxPasses) {
                    return run(passes, false, start);
                }
                CompositeSimulator.Pass pass = sync(parent);
                passes.add(pass);
                quiet++;
                if (pass.outcome() == CompositeSimulator.Outcome.PARENT_GONE || pass.outcome() == CompositeSimulator.Outcome.IGNORED) {
                    return run(passes, true, start);
                }
                continue;
            }
            Optional<Instant> workload = settle ? workloads.nextDue(store) : Optional.empty();
            Optional<Instant> retry = queue.retry();
            if (workload.isEmpty() && retry.isEmpty()) {
                boolean applied = passes.isEmpty() || passes.get(passes.size() - 1).outcome() == CompositeSimulator.Outcome.APPLIED;
                return run(passes, applied, start);
            }
            if (workload.isPresent() && (retry.isEmpty() || !retry.get().isBefore(workload.get()))) {
                clock.advanceTo(workload.get());
                if (step(parent)) {
                    quiet = 0;
                }
            } else {
                clock.advanceTo(retry.get());
            }
            queue.fire(clock.instant());
        }
        return run(passes, false, start);
    }

    /**
     * Lets {@code span} of simulated time go by with nothing changed from outside: the workloads keep
     * stepping, and every sync that falls due runs (resyncs, retries, the events they cause). At most
     * {@code maxPasses} passes, and at most {@link #SAME_INSTANT} in a row at one instant (syncs that
     * keep causing themselves: a hot loop); the run says whether the span ended first.
     */
    public Run idle(ChildId parent, Duration span, int maxPasses) {
        Instant start = clock.instant();
        Instant end = start.plus(span);
        List<CompositeSimulator.Pass> passes = new ArrayList<>();
        int sameInstant = 0;
        Instant last = null;
        while (passes.size() < maxPasses) {
            if (queue.queued()) {
                sameInstant = clock.instant().equals(last) ? sameInstant + 1 : 0;
                last = clock.instant();
                if (sameInstant >= SAME_INSTANT) {
                    break;
                }
                CompositeSimulator.Pass pass = sync(parent);
                passes.add(pass);
                if (pass.outcome() == CompositeSimulator.Outcome.PARENT_GONE || pass.outcome() == CompositeSimulator.Outcome.IGNORED) {
                    break;
                }
                continue;
            }
            Optional<Instant> workload = workloads.nextDue(store);
            Optional<Instant> next = queue.next();
            if (workload.isPresent() && (next.isEmpty() || workload.get().isBefore(next.get()))) {
                next = workload;
            }
            if (next.isEmpty() || next.get().isAfter(end)) {
                clock.advanceTo(end);
                return run(passes, true, start);
            }
            clock.advanceTo(next.get());
            if (workload.isPresent() && !workload.get().isAfter(clock.instant())) {
                step(parent);
            }
            queue.fire(clock.instant());
        }
        return run(passes, false, start);
    }

    private Run run(List<CompositeSimulator.Pass> passes, boolean converged, Instant start) {
        List<Instant> all = times();
        return new Run(List.copyOf(passes), converged, Duration.between(start, clock.instant()),
                List.copyOf(all.subList(all.size() - passes.size(), all.size())), passes.stream().mapToInt(this::writes).sum());
    }

    /**
     * The kubelet's step of the workloads that are due, then the controllers' reactions to it at the same instant; an
     * event for the parent when they changed it or a child. True when a status moved.
     */
    private boolean step(ChildId parent) {
        String before = watched(parent);
        boolean moved = workloads.step(store);
        workloads.react(store);
        if (!watched(parent).equals(before)) {
            queue.add();
        }
        return moved;
    }

    /**
     * One sync as a worker runs it, and what it leaves in the queue: a failure is retried, and the events of its own
     * writes and of the controllers' reactions to them (a Deployment's {@code observedGeneration}, the pods it creates),
     * which reach the informers while it runs or is queued again, make one more sync, however many there are.
     */
    private CompositeSimulator.Pass sync(ChildId parent) {
        Instant now = clock.instant();
        queue.take(now);
        String before = watched(parent);
        int childWrites = simulator.childWrites();
        CompositeSimulator.Pass pass = simulator.sync(parent);
        workloads.react(store);
        writes.put(pass, simulator.childWrites() - childWrites);
        history.add(pass);
        times.add(now);
        switch (pass.outcome()) {
            case APPLIED -> {
                queue.forget();
                if (pass.resyncAfter() != null) {
                    queue.addAfter(now, pass.resyncAfter(), false);
                }
            }
            case FAILED -> queue.addRateLimited(now);
            case RETRY_LATER -> {
                queue.forget();
                queue.addAfter(now, pass.retryAfter(), true);
            }
            case PARENT_GONE, IGNORED -> { }
        }
        if (!watched(parent).equals(before)) {
            queue.add();
        }
        return pass;
    }

    /**
     * What of the cluster makes an informer event for the parent: the parent (under {@code ignoreStatusChanges} only its
     * generation, labels, annotations and deletion) and the objects it owns of a declared child (attachment) type. The
     * ControllerRevisions Metacontroller writes are no child: no informer of it watches them.
     */
    private String watched(ChildId ref) {
        Optional<ObjectNode> parent = store.get(ref);
        if (parent.isEmpty()) {
            return "gone";
        }
        JsonNode metadata = parent.get().path("metadata");
        StringBuilder state = new StringBuilder(ignoresStatusChanges(parent.get()) ? watchedMetadata(parent.get())
                : metadata.path("resourceVersion").asText());
        for (ObjectNode child : store.ownedBy(metadata.path("uid").asText())) {
            if (declared(child)) {
                state.append(' ').append(Ids.text(Ids.of(child))).append('@').append(child.path("metadata").path("resourceVersion").asText());
            }
        }
        return state.toString();
    }

    private boolean declared(JsonNode child) {
        String apiVersion = child.path("apiVersion").asText();
        String resource = ResourceKinds.resourceOf(child.path("kind").asText());
        return spec.childResources().stream().anyMatch(declared -> declared.apiVersion().equals(apiVersion) && declared.resource().equals(resource));
    }

    /**
     * What of a parent Metacontroller still reacts to under {@code ignoreStatusChanges}: its generation, labels,
     * annotations and deletion ({@code updateParentObject} in pkg/controller/composite/controller.go and
     * pkg/controller/decorator/controller.go, v4.17.2).
     */
    private static String watchedMetadata(JsonNode parent) {
        JsonNode metadata = parent.path("metadata");
        return metadata.path("generation").asText() + " " + metadata.path("labels") + " " + metadata.path("annotations") + " "
                + metadata.path("deletionTimestamp").asText();
    }

    /**
     * Whether the controller declares {@code ignoreStatusChanges} for this parent: a composite on its
     * {@code parentResource}, a decorator on the {@code resources} entry of the target's group and kind.
     */
    private boolean ignoresStatusChanges(JsonNode parent) {
        JsonNode controller = spec.manifest().path("spec");
        if (!spec.decorator()) {
            return controller.path("parentResource").path("ignoreStatusChanges").asBoolean(false);
        }
        String group = groupOf(parent.path("apiVersion").asText());
        String resource = ResourceKinds.resourceOf(parent.path("kind").asText());
        for (JsonNode entry : controller.path("resources")) {
            if (entry.path("ignoreStatusChanges").asBoolean(false) && groupOf(entry.path("apiVersion").asText()).equals(group)
                    && entry.path("resource").asText().equals(resource)) {
                return true;
            }
        }
        return false;
    }

    private static String groupOf(String apiVersion) {
        int slash = apiVersion.indexOf('/');
        return slash < 0 ? "" : apiVersion.substring(0, slash);
    }

    private static Duration resyncPeriod(ControllerSpec spec) {
        JsonNode seconds = spec.manifest().path("spec").path("resyncPeriodSeconds");
        if (!seconds.isNumber() || seconds.asDouble() <= 0) {
            return null;
        }
        return Duration.ofMillis(Math.max(1000, Math.round(seconds.asDouble() * 1000)));
    }
}
