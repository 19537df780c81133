package dev.metahook.testing;

import dev.metahook.api.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import java.util.Map;

/** A parent type for tests: {@code widgets.test.metahook.dev}, spec {@code size} and {@code message}. */
@Group("test.metahook.dev")
@Version("v1")
public class Widget extends CustomResource<Widget.Spec, Map<String, Object>> {

    public static class Spec {
        public Integer size;
        public String message;
    }
}
