package dev.metahook.api;

import java.time.Clock;
import java.util.Map;
import java.util.Optional;

/**
 * Everything Metacontroller sent with a hook call besides the parent: the observed children (a
 * decorator's attachments), the related objects its customize hook asked for, the controller's own
 * settings, and whether the parent is being finalized. One context lives for one call; objects are
 * read into their types only when asked for.
 */
public interface Context {

    /** The children (or attachments) Metacontroller observed for this parent. */
    ObservedChildren children();

    /** The objects the customize hook selected; read-only: an answer can never delete or change them. */
    ObservedObjects related();

    /** The CompositeController or DecoratorController this call is for. */
    ControllerInfo controller();

    /** Whether this is a finalize call: the parent is going away, or stopped matching the controller. */
    boolean finalizing();

    /** The clock of the server: the time conditions carry. A fixed one in tests. */
    Clock clock();

    /**
     * The parent's status as the request carried it, as plain JSON values (maps, lists, strings,
     * {@code BigDecimal} or integer numbers, booleans, nulls), whether or not it fits the status type;
     * empty when the parent has no status object. Read it when the typed status is null because it
     * did not fit: see {@link RawStatusReader}.
     */
    Optional<Map<String, Object>> rawStatus();
}
