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
     * The answer when the parent cannot be acted on: {@link #sync} threw a {@link TerminalException},
     * or the spec has fields of the wrong type (then {@code parent} comes without its spec). The
     * default keeps every observed child as last applied and sets {@code Ready} and
     * {@code Reconciling} False and {@code Stalled} True on the status the parent has. Override it to
     * report a status of the controller's own; keep the children.
     */
    default SyncResult stalled(P parent, ObservedChildren children, TerminalException error) {
        return SyncResult.stalled(error);
    }

    /**
     * Called instead of {@link #sync} while the parent is being deleted (or no longer matches the
     * controller's label selector), until it answers {@link Finalization#done()}. A spec that cannot
     * be read never blocks teardown: the parent then comes without its spec.
     */
    default Finalization finalize(P parent, ObservedChildren children) {
        throw new UnsupportedOperationException("this controller has no finalize hook");
    }

    /** The rules that select the related objects sync will see; may depend only on the parent's spec. */
    default List<RelatedRule> customize(P parent) {
        throw new UnsupportedOperationException("this controller has no customize hook");
    }
}
