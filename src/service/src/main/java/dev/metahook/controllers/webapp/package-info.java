/** WebApp: a Deployment and a Service for one container image, with replica counts and a URL in its status. */
package dev.metahook.controllers.webapp;
