/**
 * The HTTP side: Javalin routes for every registered controller's hooks, health endpoints, status
 * codes and problem+json, ETag and 304, body limits, keep-alive, configuration from the environment.
 * Everything about a hook's content is the engine's business.
 */
package dev.metahook.server;
