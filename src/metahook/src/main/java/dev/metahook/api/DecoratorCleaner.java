package dev.metahook.api;

import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * A decorator whose cleanup changes the target's labels or annotations (takes away the label its sync
 * set, say): as a {@link Cleaner}, but {@link #cleanup} may answer a {@link DecoratorCleanup}. Every
 * {@code Cleaner} is one. Only a {@link DecoratorController} may be one that is not a {@code Cleaner}:
 * registering such a composite fails, since Metacontroller's composite response has no labels or
 * annotations.
 */
public interface DecoratorCleaner<T extends HasMetadata, S> {

    DecoratorCleanup<S> cleanup(T target, Context context);
}
