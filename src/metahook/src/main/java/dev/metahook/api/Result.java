package dev.metahook.api;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
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
 * turn the result into a {@link DecoratorResult}, which only a {@link DecoratorController} (and a
 * {@link DecoratorCleaner}) may answer. A {@code Result} is not a {@code DecoratorResult}, nor the
 * other way round (both are an {@link HookResult}), so a CompositeController that calls them does not
 * compile: Metacontroller's composite response has no such fields.
 */
public final class Result<S> implements HookResult<S> {
    private final ResultParts parts;

    private Result(ResultParts parts) {
        this.parts = parts;
    }

    /** These objects should exist; every observed one that is not among them must be said to go. */
    public static <S> Result<S> of(HasMetadata... objects) {
        return of(Arrays.asList(objects));
    }

    public static <S> Result<S> of(Collection<? extends HasMetadata> objects) {
        return new Result<>(ResultParts.of(objects));
    }

    /**
     * Every observed object stays exactly as Metacontroller last applied it: the answer for a parent that
     * cannot be acted on, so that a bad edit never deletes or changes what runs.
     */
    public static <S> Result<S> keepingObserved() {
        return new Result<>(ResultParts.keepingObserved());
    }

    /** The parent's whole status; it replaces what was there. */
    @Override
    public <T> Result<T> withStatus(T status) {
        return new Result<>(parts.withStatus(status));
    }

    /** Ask Metacontroller to call again after this delay, even if nothing changes. */
    public <T extends S> Result<T> resyncAfter(Duration delay) {
        return new Result<>(parts.resyncAfter(delay));
    }

    /** These observed objects go away. */
    public <T extends S> Result<T> deleting(HasMetadata... observed) {
        return new Result<>(parts.deleting(observed));
    }

    public <T extends S> Result<T> deleting(Collection<ChildId> observed) {
        return new Result<>(parts.deleting(observed));
    }

    /** Every observed object that is not among the desired ones goes away. */
    public <T extends S> Result<T> deletingUnlisted() {
        return new Result<>(parts.deletingUnlisted());
    }

    /** A decorator's answer: this one, and a label set on the target. */
    public <T extends S> DecoratorResult<T> withLabel(String key, String value) {
        return DecoratorResult.<T>from(parts).withLabel(key, value);
    }

    /** A decorator's answer: this one, and a label removed from the target. */
    public <T extends S> DecoratorResult<T> removingLabel(String key) {
        return DecoratorResult.<T>from(parts).removingLabel(key);
    }

    /** A decorator's answer: this one, and an annotation set on the target. */
    public <T extends S> DecoratorResult<T> withAnnotation(String key, String value) {
        return DecoratorResult.<T>from(parts).withAnnotation(key, value);
    }

    /** A decorator's answer: this one, and an annotation removed from the target. */
    public <T extends S> DecoratorResult<T> removingAnnotation(String key) {
        return DecoratorResult.<T>from(parts).removingAnnotation(key);
    }

    @Override
    public List<HasMetadata> objects() {
        return parts.objects();
    }

    @Override
    public boolean keepsObserved() {
        return parts.keepsObserved();
    }

    @Override
    public Optional<S> status() {
        return Optional.ofNullable(parts.typedStatus());
    }

    @Override
    public Optional<Duration> resyncAfter() {
        return Optional.ofNullable(parts.resyncAfter());
    }

    @Override
    public Set<ChildId> deletions() {
        return parts.deletions();
    }

    @Override
    public boolean deletesUnlisted() {
        return parts.deletesUnlisted();
    }
}
