/**
 * What a controller author sees: {@link dev.metahook.api.CompositeController} and
 * {@link dev.metahook.api.DecoratorController}, the observed children, results made by static
 * factories ({@link dev.metahook.api.SyncResult}, {@link dev.metahook.api.Finalization}),
 * {@link dev.metahook.api.Conditions}, and the error taxonomy
 * ({@link dev.metahook.api.TerminalException}, {@link dev.metahook.api.TransientException}).
 * Nothing here speaks HTTP; the engine turns these values into Metacontroller's wire format.
 */
package dev.metahook.api;
