/**
 * Turns a request body into a response for a registered controller: decode, dispatch, guard, encode.
 * No HTTP here: the answer is a status code, headers and bytes, which the server only copies out.
 */
package dev.metahook.engine;
