package dev.metahook.api;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What a hook answers, for composite and decorator controllers alike: the desired objects (children,
 * or a decorator's attachments), which observed ones go, the parent's status of type {@code S} and
 * when to look again. Immutable; every method returns a new value.
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
 * <p>A decorator may also set or remove labels and annotations of the target it decorates:
 * {@link #withLabel}, {@link #removingLabel}, {@link #withAnnotation} and {@link #removingAnnotation}
 * return a {@link DecoratorResult}, which only a {@link DecoratorController} (and a
 * {@link DecoratorCleaner}) may answer. A CompositeController that calls them does not compile:
 * Metacontroller's composite response has no such fields.
 */
public final class Result<S> extends DecoratorResult<S> {

    private Result(List<HasMetadata> objects, boolean keepsObserved, S status, Duration resyncAfter, Set<ChildId> deletions,
                   boolean deletesUnlisted) {
        super(objects, keepsObserved, status, resyncAfter, deletions, deletesUnlisted, Map.of(), Map.of());
    }

    /** These objects should exist; every observed one that is not among them must be said to go. */
    public static <S> Result<S> of(HasMetadata... objects) {
        return of(Arrays.asList(objects));
    }

    public static <S> Result<S> of(Collection<? extends HasMetadata> objects) {
        if (objects.stream().anyMatch(Objects::isNull)) {
            throw new IllegalArgumentException("a desired object is null");
        }
        return new Result<>(List.copyOf(objects), false, null, null, Set.of(), false);
    }

    /**
     * Every observed object stays exactly as Metacontroller last applied it: the answer for a parent that
     * cannot be acted on, so that a bad edit never deletes or changes what runs.
     */
    public static <S> Result<S> keepingObserved() {
        return new Result<>(List.of(), true, null, null, Set.of(), false);
    }

    @Override
    public <T> Result<T> withStatus(T status) {
        return (Result<T>) super.withStatus(status);
    }

    @Override
    public <T extends S> Result<T> resyncAfter(Duration delay) {
        return (Result<T>) super.<T>resyncAfter(delay);
    }

    @Override
    public <T extends S> Result<T> deleting(HasMetadata... observed) {
        return (Result<T>) super.<T>deleting(observed);
    }

    @Override
    public <T extends S> Result<T> deleting(Collection<ChildId> observed) {
        return (Result<T>) super.<T>deleting(observed);
    }

    @Override
    public <T extends S> Result<T> deletingUnlisted() {
        return (Result<T>) super.<T>deletingUnlisted();
    }

    @Override
    <T> DecoratorResult<T> copy(T status, Duration resyncAfter, Set<ChildId> deletions, boolean deletesUnlisted,
                                Map<String, String> labels, Map<String, String> annotations) {
        if (labels.isEmpty() && annotations.isEmpty()) {
            return new Result<>(objects(), keepsObserved(), status, resyncAfter, deletions, deletesUnlisted);
        }
        return super.copy(status, resyncAfter, deletions, deletesUnlisted, labels, annotations);
    }
}
