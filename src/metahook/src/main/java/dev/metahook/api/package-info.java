/**
 * What a controller author sees. A controller implements {@link dev.metahook.api.CompositeController}
 * or {@link dev.metahook.api.DecoratorController} and, as it needs them, the capabilities
 * {@link dev.metahook.api.Cleaner} (finalize), {@link dev.metahook.api.Customizer} (customize),
 * {@link dev.metahook.api.StalledHandler} and {@link dev.metahook.api.RawStatusReader};
 * {@link dev.metahook.api.Controllers} registers it under a route name, with a
 * {@link dev.metahook.api.Declaration} of what Metacontroller must know besides (its
 * {@link dev.metahook.api.Child} resources and their {@link dev.metahook.api.Update} strategies,
 * resync, selectors), from which its manifests are generated; {@link dev.metahook.api.ConditionSchema}
 * and {@link dev.metahook.api.ListMapKeys} say in the parent type what its CRD must validate. Every
 * hook gets the parent and a {@link dev.metahook.api.Context} (observed children,
 * related objects, the controller's settings, the clock) and answers a
 * {@link dev.metahook.api.Result} (a {@link dev.metahook.api.Cleanup} from cleanup);
 * {@link dev.metahook.api.Conditions} builds the status conditions and
 * {@link dev.metahook.api.Explicit} the empty lists and maps that must reach the wire; the error taxonomy is
 * {@link dev.metahook.api.TerminalException} and {@link dev.metahook.api.TransientException}.
 * Nothing here speaks HTTP; the engine turns these values into Metacontroller's wire format.
 */
package dev.metahook.api;
