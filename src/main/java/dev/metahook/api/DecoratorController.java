package dev.metahook.api;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.List;

/**
 * A controller for a DecoratorController target of type {@code T}: it adds labels, annotations,
 * status and attachments to objects it does not own. Only {@link #sync} is required.
 */
@FunctionalInterface
public interface DecoratorController<T extends HasMetadata> {

    DecoratorResult sync(T object, ObservedChildren attachments);

    /** Called while the target is being deleted or stops matching, until it answers a finalized result. */
    default DecoratorResult finalize(T object, ObservedChildren attachments) {
        throw new UnsupportedOperationException("this controller has no finalize hook");
    }

    default List<RelatedRule> customize(T object) {
        throw new UnsupportedOperationException("this controller has no customize hook");
    }
}
