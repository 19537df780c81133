package dev.metahook.api;

import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * A controller whose parents need work before they go. Metacontroller then keeps a finalizer on each
 * parent and calls {@link #cleanup} (the {@code finalize} hook) instead of sync while the parent is
 * being deleted, or no longer matches the controller's label selector, until it answers
 * {@link Cleanup#done()}. A spec that cannot be read never blocks teardown: the parent then comes
 * without its spec. A decorator whose cleanup changes the target's labels or annotations is a
 * {@link DecoratorCleaner} instead (a controller is one or the other, never both).
 */
public interface Cleaner<P extends HasMetadata, S> {

    Cleanup<S> cleanup(P parent, Context context);
}
