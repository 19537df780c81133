package dev.metahook.api;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.time.Duration;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What a {@link DecoratorController} answers when it changes the target it decorates: the parts of a
 * {@link Result}, and the labels and annotations it sets on or removes from the target. A chain that
 * starts from {@link Result#of} becomes a {@code DecoratorResult} at its first {@link #withLabel},
 * {@link #removingLabel}, {@link #withAnnotation} or {@link #removingAnnotation}, and stays one. Only a
 * decorator's {@code sync} (and a {@link DecoratorCleaner}'s cleanup) may return it: a
 * CompositeController's hooks return a {@code Result}, because Metacontroller's composite response has
 * no such fields and would drop them, so a composite that tries does not compile. A {@code Result} and a
 * {@code DecoratorResult} are siblings, both an {@link HookResult}. Immutable; every method returns a new value.
 */
public final class DecoratorResult<S> implements HookResult<S> {
    private final ResultParts parts;
    private final Map<String, String> labels;
    private final Map<String, String> annotations;

    private DecoratorResult(ResultParts parts, Map<String, String> labels, Map<String, String> annotations) {
        this.parts = parts;
        this.labels = labels;
        this.annotations = annotations;
    }

    /** A result's parts, no target changes yet. */
    static <S> DecoratorResult<S> from(ResultParts parts) {
        return new DecoratorResult<>(parts, Map.of(), Map.of());
    }

    /** The parent's whole status; it replaces what was there. */
    @Override
    public <T> DecoratorResult<T> withStatus(T status) {
        return new DecoratorResult<>(parts.withStatus(status), labels, annotations);
    }

    /** Ask Metacontroller to call again after this delay, even if nothing changes. */
    public <T extends S> DecoratorResult<T> resyncAfter(Duration delay) {
        return new DecoratorResult<>(parts.resyncAfter(delay), labels, annotations);
    }

    /** These observed objects go away. */
    public <T extends S> DecoratorResult<T> deleting(HasMetadata... observed) {
        return new DecoratorResult<>(parts.deleting(observed), labels, annotations);
    }

    public <T extends S> DecoratorResult<T> deleting(Collection<ChildId> observed) {
        return new DecoratorResult<>(parts.deleting(observed), labels, annotations);
    }

    /** Every observed object that is not among the desired ones goes away. */
    public <T extends S> DecoratorResult<T> deletingUnlisted() {
        return new DecoratorResult<>(parts.deletingUnlisted(), labels, annotations);
    }

    /** Sets a label on the target. */
    public <T extends S> DecoratorResult<T> withLabel(String key, String value) {
        return new DecoratorResult<>(parts, with(labels, key, value), annotations);
    }

    /** Removes a label from the target. */
    public <T extends S> DecoratorResult<T> removingLabel(String key) {
        return new DecoratorResult<>(parts, with(labels, key, null), annotations);
    }

    /** Sets an annotation on the target. */
    public <T extends S> DecoratorResult<T> withAnnotation(String key, String value) {
        return new DecoratorResult<>(parts, labels, with(annotations, key, value));
    }

    /** Removes an annotation from the target. */
    public <T extends S> DecoratorResult<T> removingAnnotation(String key) {
        return new DecoratorResult<>(parts, labels, with(annotations, key, null));
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

    /** Labels to set on the target; a null value removes the label. */
    public Map<String, String> labels() {
        return labels;
    }

    /** Annotations to set on the target; a null value removes the annotation. */
    public Map<String, String> annotations() {
        return annotations;
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
