package dev.metahook.api;

import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * A controller that reports its own status when a parent cannot be acted on: sync threw a
 * {@link TerminalException}, or the spec has fields of the wrong type (then the parent comes without
 * its spec). Without it, a composite keeps every observed child as last applied and sets
 * {@code Ready} and {@code Reconciling} False and {@code Stalled} True on the status the parent has; a
 * decorator keeps its attachments and leaves the target's status alone. Keep the children: start from
 * {@link Result#keepingObserved()}.
 */
public interface StalledHandler<P extends HasMetadata, S> {

    Result<S> stalled(P parent, Context context, TerminalException error);
}
