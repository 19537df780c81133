package dev.metahook.spring;

import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;

/**
 * The {@code metahook} health contributor: {@code UP} while the hooks are served, {@code OUT_OF_SERVICE} before
 * the server has started and from the first moment of its drain, as the plain service's {@code /readyz}.
 */
final class HookServerHealth implements HealthIndicator {
    private final HookServerLifecycle server;

    HookServerHealth(HookServerLifecycle server) {
        this.server = server;
    }

    @Override
    public Health health() {
        if (server.ready()) {
            return Health.up().withDetail("port", server.port()).build();
        }
        Health.Builder health = Health.outOfService();
        Boolean drained = server.drained();
        return drained == null ? health.build() : health.withDetail("drained", drained).build();
    }
}
