package dev.metahook.api;

import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * A controller for a CompositeController parent of type {@code P} whose status is an {@code S}: given
 * the parent and what Metacontroller observed, it says which children should exist and what the
 * parent's status is. Implement {@link Cleaner} as well when deletion needs work, {@link Customizer}
 * when sync needs related objects, and {@link StalledHandler} to report a status of its own when the
 * parent cannot be acted on. The answer is a {@link Result}, never a {@link DecoratorResult} (they are
 * siblings): the target label and annotation changes of a {@code DecoratorResult} are a decorator's (Metacontroller's composite response has no such
 * fields), so a composite that sets them does not compile. Implementations must be pure functions
 * of their input: Metacontroller calls them again and again, and in parallel.
 */
@FunctionalInterface
public interface CompositeController<P extends HasMetadata, S> {

    /** The desired children and status for this parent. */
    Result<S> sync(P parent, Context context);
}
