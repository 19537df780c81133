package dev.metahook.api;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What a hook answers, for either kind of controller: a composite's {@link Result} or a decorator's
 * {@link DecoratorResult}. Neither is the other: a {@code Result} has no target labels or annotations
 * (Metacontroller's composite response has no such fields), a {@code DecoratorResult} has them. A
 * {@link DecoratorController} may answer either; a {@link CompositeController} answers a {@code Result}.
 */
public sealed interface HookResult<S> permits Result, DecoratorResult {

    /** The same answer with the parent's whole status; it replaces what was there. */
    <T> HookResult<T> withStatus(T status);

    /** The desired objects the controller built (observed ones it keeps are added by the engine). */
    List<HasMetadata> objects();

    /** Every observed object stays exactly as Metacontroller last applied it. */
    boolean keepsObserved();

    Optional<S> status();

    Optional<Duration> resyncAfter();

    Set<ChildId> deletions();

    boolean deletesUnlisted();
}
