/**
 * The HTTP side: Javalin routes for every registered controller's hooks, health endpoints, status
 * codes and problem+json, ETag and 304, body limits, keep-alive, configuration from the environment.
 * Everything about a hook's content is the engine's business.
 *
 * <p><b>Internal</b>, except {@link dev.metahook.internal.server.ServerConfig}, {@link dev.metahook.internal.server.WarmUp}
 * and {@link dev.metahook.internal.server.HookServer}, which a service of one's own configures and holds: the
 * rest is not for users to import and free to change in any release (docs/writing-controllers.md,
 * "Use metahook as a library"; FenceTest).
 */
package dev.metahook.internal.server;
