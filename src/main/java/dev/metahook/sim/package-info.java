/**
 * A simulator of Metacontroller's side of the hook contract: an in-memory object store and the sync
 * pass Metacontroller runs for a CompositeController (build the request, call the hook, apply the
 * answer with its three-way merge, update strategies, deletions, finalizer and status). No HTTP
 * server here; a hook is called over HTTP at any URL or in-process.
 */
package dev.metahook.sim;
