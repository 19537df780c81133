/**
 * Metacontroller's JSON: the request and response envelopes of every hook, object maps keyed
 * {@code Kind.apiVersion} then by object key (v1 and v2 keys), and the canonical encoding that makes
 * the same response the same bytes. Kubernetes objects stay Jackson trees here; nothing is converted
 * to a typed model unless a caller asks for it. {@link dev.metahook.internal.wire.JsonCensus} weighs what the trees
 * of a body would take before any is built, for the memory budget and the caches.
 *
 * <p><b>Internal</b>: public only for the layers above; not for users to import, and free to change in
 * any release (docs/writing-controllers.md, "Use metahook as a library"; FenceTest).
 */
package dev.metahook.internal.wire;
