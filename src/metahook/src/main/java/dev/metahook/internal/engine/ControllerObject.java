package dev.metahook.internal.engine;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahook.api.ControllerInfo;
import dev.metahook.api.Hook;
import dev.metahook.internal.wire.HookVersion;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** A controller's settings, read from the controller object of a request when asked for (the tree is shared: only read). */
record ControllerObject(JsonNode controller, String declarations) implements ControllerInfo {

    @Override
    public String name() {
        return controller.path("metadata").path("name").asText("");
    }

    @Override
    public Optional<Duration> resyncPeriod() {
        JsonNode seconds = controller.path("spec").path("resyncPeriodSeconds");
        if (!seconds.isNumber()) {
            return Optional.empty();
        }
        BigDecimal millis = seconds.decimalValue().movePointRight(3);
        return Optional.of(Duration.ofMillis(millis.longValue()));
    }

    @Override
    public List<Resource> childResources() {
        List<Resource> resources = new ArrayList<>();
        for (JsonNode declaration : controller.path("spec").path(declarations)) {
            resources.add(new Resource(declaration.path("apiVersion").asText(""), declaration.path("resource").asText("")));
        }
        return List.copyOf(resources);
    }

    @Override
    public String hookVersion(Hook hook) {
        return HookVersion.declared(controller, hook.segment()) == HookVersion.V2 ? "v2" : "v1";
    }
}
