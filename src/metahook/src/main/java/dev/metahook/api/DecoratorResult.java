package dev.metahook.api;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What a {@link DecoratorController} answers: a {@link Result}, and the labels and annotations it sets
 * on or removes from the target it decorates. A chain that starts from {@link Result#of} becomes a
 * {@code DecoratorResult} at its first {@link #withLabel}, {@link #removingLabel}, {@link #withAnnotation}
 * or {@link #removingAnnotation}, and stays one. Only a decorator's {@code sync} (and a
 * {@link DecoratorCleaner}'s cleanup) may return it: a CompositeController's hooks return a
 * {@code Result}, because Metacontroller's composite response has no such fields and would drop them,
 * so a composite that tries does not compile. Every {@code Result} is a {@code DecoratorResult} without
 * target changes. Immutable; every method returns a new value.
 */
public sealed class DecoratorResult<S> permits Result {
    private final List<HasMetadata> objects;
    private final boolean keepsObserved;
    private final S status;
    private final Duration resyncAfter;
    private final Set<ChildId> deletions;
    private final boolean deletesUnlisted;
    private final Map<String, String> labels;
    private final Map<String, String> annotations;

    DecoratorResult(List<HasMetadata> objects, boolean keepsObserved, S status, Duration resyncAfter, Set<ChildId> deletions,
                    boolean deletesUnlisted, Map<String, String> labels, Map<String, String> annotations) {
        this.objects = objects;
        this.keepsObserved = keepsObserved;
        this.status = status;
        this.resyncAfter = resyncAfter;
        this.deletions = deletions;
        this.deletesUnlisted = deletesUnlisted;
        this.labels = labels;
        this.annotations = annotations;
    }

    /** The parent's whole status; it replaces what was there. */
    public <T> DecoratorResult<T> withStatus(T status) {
        if (status == null) {
            throw new IllegalArgumentException("status is null; leave withStatus out to keep the parent's status");
        }
        return copy(status, resyncAfter, deletions, deletesUnlisted, labels, annotations);
    }

    /** Ask Metacontroller to call again after this delay, even if nothing changes. */
    public <T extends S> DecoratorResult<T> resyncAfter(Duration delay) {
        if (delay.isNegative()) {
            throw new IllegalArgumentException("resync delay is negative: " + delay);
        }
        return copy(narrowed(), delay, deletions, deletesUnlisted, labels, annotations);
    }

    /** These observed objects go away. */
    public <T extends S> DecoratorResult<T> deleting(HasMetadata... observed) {
        return deleting(Arrays.stream(observed).map(ChildId::of).toList());
    }

    public <T extends S> DecoratorResult<T> deleting(Collection<ChildId> observed) {
        Set<ChildId> all = new LinkedHashSet<>(deletions);
        all.addAll(observed);
        return copy(narrowed(), resyncAfter, Set.copyOf(all), deletesUnlisted, labels, annotations);
    }

    /** Every observed object that is not among the desired ones goes away. */
    public <T extends S> DecoratorResult<T> deletingUnlisted() {
        return copy(narrowed(), resyncAfter, deletions, true, labels, annotations);
    }

    /** Sets a label on the target. */
    public <T extends S> DecoratorResult<T> withLabel(String key, String value) {
        return copy(narrowed(), resyncAfter, deletions, deletesUnlisted, with(labels, key, value), annotations);
    }

    /** Removes a label from the target. */
    public <T extends S> DecoratorResult<T> removingLabel(String key) {
        return copy(narrowed(), resyncAfter, deletions, deletesUnlisted, with(labels, key, null), annotations);
    }

    /** Sets an annotation on the target. */
    public <T extends S> DecoratorResult<T> withAnnotation(String key, String value) {
        return copy(narrowed(), resyncAfter, deletions, deletesUnlisted, labels, with(annotations, key, value));
    }

    /** Removes an annotation from the target. */
    public <T extends S> DecoratorResult<T> removingAnnotation(String key) {
        return copy(narrowed(), resyncAfter, deletions, deletesUnlisted, labels, with(annotations, key, null));
    }

    /** The desired objects the controller built (observed ones it keeps are added by the engine). */
    public List<HasMetadata> objects() {
        return objects;
    }

    public boolean keepsObserved() {
        return keepsObserved;
    }

    public Optional<S> status() {
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

    /** Labels to set on the target; a null value removes the label. Empty for a {@link Result}. */
    public Map<String, String> labels() {
        return labels;
    }

    /** Annotations to set on the target; a null value removes the annotation. Empty for a {@link Result}. */
    public Map<String, String> annotations() {
        return annotations;
    }

    /** The same objects with these parts; a {@link Result} stays one while it changes nothing on the target. */
    <T> DecoratorResult<T> copy(T status, Duration resyncAfter, Set<ChildId> deletions, boolean deletesUnlisted,
                                Map<String, String> labels, Map<String, String> annotations) {
        return new DecoratorResult<>(objects, keepsObserved, status, resyncAfter, deletions, deletesUnlisted, labels, annotations);
    }

    /**
     * The status as the narrower type a chain's target asks for. Sound as long as no status is set
     * (the usual chain: {@code of}, then {@code deleting...}, then {@code withStatus} last) or the
     * status type is final, as a record is; {@code withStatus} itself always retypes soundly.
     */
    @SuppressWarnings("unchecked")
    private <T extends S> T narrowed() {
        return (T) status;
    }

    private static Map<String, String> with(Map<String, String> map, String key, String value) {
        if (key == null || key.isEmpty()) {
            throw new IllegalArgumentException("a label or annotation key is empty");
        }
        Map<String, String> copy = new LinkedHashMap<>(map);
        copy.put(key, value);
        return Collections.unmodifiableMap(copy);
    }
}
