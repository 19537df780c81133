package dev.metahook.api;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.List;

/**
 * A controller for a CompositeController parent of type {@code P}: given the parent and the children
 * Metacontroller observed, it says which children should exist and what the parent's status is.
 * Only {@link #sync} is required; override {@link #finalize} when deletion needs work and
 * {@link #customize} when the hook needs related objects. Implementations must be pure functions of
 * their input: Metacontroller calls them again and again, and in parallel.
 */
@FunctionalInterface
public interface CompositeController<P extends HasMetadata> {

    /** The desired children and status for this parent. */
    SyncResult sync(P parent, ObservedChildren children);

    /**
     * Called instead of {@link #sync} while the parent is being deleted (or no longer matches the
     * controller's label selector), until it answers {@link Finalization#done()}.
     */
    default Finalization finalize(P parent, ObservedChildren children) {
        throw new UnsupportedOperationException("this controller has no finalize hook");
    }

    /** The rules that select the related objects sync will see; may depend only on the parent's spec. */
    default List<RelatedRule> customize(P parent) {
        throw new UnsupportedOperationException("this controller has no customize hook");
    }
}
