/**
 * A simulator of Metacontroller's side of the hook contract: an in-memory object store and the pass
 * Metacontroller runs for a CompositeController's parent or a DecoratorController's target (customize
 * and the related objects it selects, build the request, call the hook, apply the answer with its
 * three-way merge, update strategies and rolling updates over ControllerRevisions, deletions,
 * finalizer and status), the workload controllers stepping through their states, Metacontroller's
 * work queue on a virtual clock, another writer that makes an update meet a 409, and the checkers
 * that drive a hook through a whole life. No HTTP server here; a hook is called over HTTP at any URL
 * or in-process.
 *
 * <p><b>Internal</b>: public only for the layers above; not for users to import, and free to change in
 * any release (docs/writing-controllers.md, "Use metahook as a library"; FenceTest).
 */
package dev.metahook.internal.sim;
