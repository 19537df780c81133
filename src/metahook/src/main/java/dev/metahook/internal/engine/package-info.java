/**
 * Turns a request body into a response for a registered controller: decode, dispatch, guard, encode.
 * No HTTP here: the answer is a status code, headers and bytes, which the server only copies out.
 *
 * <p><b>Internal</b>: public only for the layers above; not for users to import, and free to change in
 * any release (docs/writing-controllers.md, "Use metahook as a library"; FenceTest).
 */
package dev.metahook.internal.engine;
