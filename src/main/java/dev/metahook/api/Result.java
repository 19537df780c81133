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
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What a hook answers, for composite and decorator controllers alike: the desired objects (children,
 * or a decorator's attachments), which observed ones go, the parent's status of type {@code S} and
 * when to look again. A decorator may also set or remove labels and annotations of the target it
 * decorates. Immutable; every method returns a new value.
 *
 * <p>Metacontroller deletes every observed object an answer leaves out. So leaving one out is not
 * enough here: the result must say it goes, with {@link #deleting} or {@link #deletingUnlisted()}, or
 * the engine refuses the answer instead of deleting by accident.
 *
 * <p>A result without {@link #withStatus} leaves the parent's status as it is: the engine sends a
 * composite parent's observed status back (Metacontroller would otherwise wipe it), and leaves the
 * field out for a decorator. The status type follows from where the chain ends: a chain that ends in
 * {@code deletingUnlisted()}, {@code deleting(...)}, {@code resyncAfter(...)} or
 * {@code withStatus(...)} takes the type the method returns, so
 * {@code return Result.of(children).deletingUnlisted();} compiles in a {@code sync} that returns
 * {@code Result<MyStatus>}.
 *
 * <p>{@link #withLabel}, {@link #removingLabel}, {@link #withAnnotation} and {@link #removingAnnotation}
 * are a DecoratorController's: Metacontroller's composite response has no such fields, so a composite
 * answer that uses them is refused ({@code 500}, violation {@code unknown-field}) rather than sent
 * with the labels silently dropped.
 */
public final class Result<S> {
    private final List<HasMetadata> objects;
    private final boolean keepsObserved;
    private final S status;
    private final Duration resyncAfter;
    private final Set<ChildId> deletions;
    private final boolean deletesUnlisted;
    private final Map<String, String> labels;
    private final Map<String, String> annotations;

    private Result(List<HasMetadata> objects, boolean keepsObserved, S status, Duration resyncAfter, Set<ChildId> deletions,
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

    /** These objects should exist; every observed one that is not among them must be said to go. */
    public static <S> Result<S> of(HasMetadata... objects) {
        return of(Arrays.asList(objects));
    }

    public static <S> Result<S> of(Collection<? extends HasMetadata> objects) {
        if (objects.stream().anyMatch(Objects::isNull)) {
            throw new IllegalArgumentException("a desired object is null");
        }
        return new Result<>(List.copyOf(objects), false, null, null, Set.of(), false, Map.of(), Map.of());
    }

    /**
     * Every observed object stays exactly as Metacontroller last applied it: the answer for a parent that
     * cannot be acted on, so that a bad edit never deletes or changes what runs.
     */
    public static <S> Result<S> keepingObserved() {
        return new Result<>(List.of(), true, null, null, Set.of(), false, Map.of(), Map.of());
    }

    /** The parent's whole status; it replaces what was there. */
    public <T> Result<T> withStatus(T status) {
        if (status == null) {
            throw new IllegalArgumentException("status is null; leave withStatus out to keep the parent's status");
        }
        return new Result<>(objects, keepsObserved, status, resyncAfter, deletions, deletesUnlisted, labels, annotations);
    }

    /** Ask Metacontroller to call again after this delay, even if nothing changes. */
    public <T extends S> Result<T> resyncAfter(Duration delay) {
        if (delay.isNegative()) {
            throw new IllegalArgumentException("resync delay is negative: " + delay);
        }
        return new Result<>(objects, keepsObserved, narrowed(), delay, deletions, deletesUnlisted, labels, annotations);
    }

    /** These observed objects go away. */
    public <T extends S> Result<T> deleting(HasMetadata... observed) {
        return deleting(Arrays.stream(observed).map(ChildId::of).toList());
    }

    public <T extends S> Result<T> deleting(Collection<ChildId> observed) {
        Set<ChildId> all = new LinkedHashSet<>(deletions);
        all.addAll(observed);
        return new Result<>(objects, keepsObserved, narrowed(), resyncAfter, Set.copyOf(all), deletesUnlisted, labels, annotations);
    }

    /** Every observed object that is not among the desired ones goes away. */
    public <T extends S> Result<T> deletingUnlisted() {
        return new Result<>(objects, keepsObserved, narrowed(), resyncAfter, deletions, true, labels, annotations);
    }

    /** Decorators only: sets a label on the target. */
    public <T extends S> Result<T> withLabel(String key, String value) {
        return new Result<>(objects, keepsObserved, narrowed(), resyncAfter, deletions, deletesUnlisted, with(labels, key, value), annotations);
    }

    /** Decorators only: removes a label from the target. */
    public <T extends S> Result<T> removingLabel(String key) {
        return new Result<>(objects, keepsObserved, narrowed(), resyncAfter, deletions, deletesUnlisted, with(labels, key, null), annotations);
    }

    /** Decorators only: sets an annotation on the target. */
    public <T extends S> Result<T> withAnnotation(String key, String value) {
        return new Result<>(objects, keepsObserved, narrowed(), resyncAfter, deletions, deletesUnlisted, labels, with(annotations, key, value));
    }

    /** Decorators only: removes an annotation from the target. */
    public <T extends S> Result<T> removingAnnotation(String key) {
        return new Result<>(objects, keepsObserved, narrowed(), resyncAfter, deletions, deletesUnlisted, labels, with(annotations, key, null));
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

    /** Labels to set on the target; a null value removes the label. */
    public Map<String, String> labels() {
        return labels;
    }

    /** Annotations to set on the target; a null value removes the annotation. */
    public Map<String, String> annotations() {
        return annotations;
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
