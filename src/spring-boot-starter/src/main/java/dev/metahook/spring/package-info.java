/**
 * metahook in a Spring Boot application: a {@link dev.metahook.api.Controllers} bean served by metahook's own server
 * as a lifecycle bean on its own port, configured under {@code metahook.*} ({@link dev.metahook.spring.MetahookProperties}),
 * its meters on Boot's {@code MeterRegistry}, its readiness an Actuator health contributor ({@code metahook}), its
 * drain driven by Boot's shutdown, its spans through Boot's OpenTelemetry when the application has one. The application
 * injects the running service as {@link dev.metahook.Server}.
 */
package dev.metahook.spring;
