package dev.metahook.api;

import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * A decorator whose cleanup changes the target's labels or annotations (takes away the label its sync
 * set, say): as a {@link Cleaner}, but {@link #cleanup} answers a {@link DecoratorCleanup}, whose result
 * may be a {@link DecoratorResult}. A sibling of {@code Cleaner}, not a kind of it: a decorator
 * implements one or the other. Registering a composite that is a {@code DecoratorCleaner} fails, since
 * Metacontroller's composite response has no labels or annotations.
 */
public interface DecoratorCleaner<T extends HasMetadata, S> {

    DecoratorCleanup<S> cleanup(T target, Context context);
}
