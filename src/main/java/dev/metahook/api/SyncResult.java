package dev.metahook.api;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What a sync answers: the desired children, the parent's status and when to look again. Immutable;
 * every method returns a new value.
 *
 * <p>Metacontroller deletes every observed child a response leaves out. So leaving one out is not
 * enough here: the result must say it goes, with {@link #deleting} or {@link #deletingUnlisted()},
 * or the engine refuses the answer instead of deleting by accident.
 */
public final class SyncResult {
    private final List<HasMetadata> children;
    private final boolean keepsObserved;
    private final Object status;
    private final Duration resyncAfter;
    private final Set<ChildId> deletions;
    private final boolean deletesUnlisted;
    private final TerminalException stalledBy;

    private SyncResult(List<HasMetadata> children, boolean keepsObserved, Object status, Duration resyncAfter,
                       Set<ChildId> deletions, boolean deletesUnlisted, TerminalException stalledBy) {
        this.children = children;
        this.keepsObserved = keepsObserved;
        this.status = status;
        this.resyncAfter = resyncAfter;
        this.deletions = deletions;
        this.deletesUnlisted = deletesUnlisted;
        this.stalledBy = stalledBy;
    }

    /** These children, and no others, should exist. */
    public static SyncResult of(HasMetadata... children) {
        return of(Arrays.asList(children));
    }

    public static SyncResult of(Collection<? extends HasMetadata> children) {
        if (children.contains(null)) {
            throw new IllegalArgumentException("a child is null");
        }
        return new SyncResult(List.copyOf(children), false, null, null, Set.of(), false, null);
    }

    /**
     * Every observed child stays exactly as Metacontroller last applied it: the answer for a spec that
     * cannot be acted on, so that a bad edit never deletes or changes what runs.
     */
    public static SyncResult keepingObserved() {
        return new SyncResult(List.of(), true, null, null, Set.of(), false, null);
    }

    /**
     * Every observed child kept as last applied, and the parent's status as it is with
     * {@code Stalled} True for this error: what a terminal error answers unless the controller says more.
     */
    public static SyncResult stalled(TerminalException error) {
        return new SyncResult(List.of(), true, null, null, Set.of(), false, error);
    }

    /** The parent's whole status (a model object, a map or a record); it replaces what was there. */
    public SyncResult withStatus(Object status) {
        return new SyncResult(children, keepsObserved, status, resyncAfter, deletions, deletesUnlisted, stalledBy);
    }

    /** Ask Metacontroller to call again after this delay, even if nothing changes. */
    public SyncResult resyncAfter(Duration delay) {
        if (delay.isNegative()) {
            throw new IllegalArgumentException("resync delay is negative: " + delay);
        }
        return new SyncResult(children, keepsObserved, status, delay, deletions, deletesUnlisted, stalledBy);
    }

    /** These observed children go away. */
    public SyncResult deleting(HasMetadata... observed) {
        return deleting(Arrays.stream(observed).map(ChildId::of).toList());
    }

    public SyncResult deleting(Collection<ChildId> observed) {
        Set<ChildId> all = new LinkedHashSet<>(deletions);
        all.addAll(observed);
        return new SyncResult(children, keepsObserved, status, resyncAfter, Set.copyOf(all), deletesUnlisted, stalledBy);
    }

    /** Every observed child that is not among the desired children goes away. */
    public SyncResult deletingUnlisted() {
        return new SyncResult(children, keepsObserved, status, resyncAfter, deletions, true, stalledBy);
    }

    public List<HasMetadata> children() {
        return children;
    }

    public boolean keepsObserved() {
        return keepsObserved;
    }

    public Optional<Object> status() {
        return Optional.ofNullable(status);
    }

    public Optional<Duration> resyncAfter() {
        return Optional.ofNullable(resyncAfter);
    }

    public Set<ChildId> deletions() {
        return deletions;
    }

    public boolean deletesUnlisted() {
        return deletesUnlisted;
    }

    /** The terminal error whose conditions the engine adds to the parent's status, when no status is given. */
    public Optional<TerminalException> stalledBy() {
        return Optional.ofNullable(stalledBy);
    }
}
