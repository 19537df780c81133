package dev.metahook.engine;

import dev.metahook.api.Context;
import dev.metahook.api.ControllerInfo;
import dev.metahook.api.ObservedChildren;
import dev.metahook.api.ObservedObjects;
import java.time.Clock;

/** What one call gives a controller besides its parent. */
record HookContext(ObservedChildren children, ObservedObjects related, ControllerInfo controller, boolean finalizing,
                   Clock clock) implements Context {
}
