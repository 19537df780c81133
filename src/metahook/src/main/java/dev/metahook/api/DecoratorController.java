package dev.metahook.api;

import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * A controller for a DecoratorController target of type {@code T}: it adds attachments, labels,
 * annotations and, if it says so, a status to objects it does not own. The target may be a built-in
 * object whose status belongs to another controller: an answer without {@link Result#withStatus}
 * leaves it alone. A decorator that never sets a status declares {@code S} as {@code Object}. The same
 * capabilities as for composites apply: {@link Cleaner} (or {@link DecoratorCleaner}, whose cleanup may
 * change the target's labels and annotations), {@link Customizer}, {@link StalledHandler}.
 * {@link Context#children()} holds the attachments. {@code sync} answers an {@link HookResult}: a
 * {@link Result} or, once it sets labels or annotations on the target, the {@link DecoratorResult} those
 * methods return. An implementation may declare the narrower one it returns.
 */
@FunctionalInterface
public interface DecoratorController<T extends HasMetadata, S> {

    /** The desired attachments, target labels and annotations, and (optionally) status. */
    HookResult<S> sync(T target, Context context);
}
