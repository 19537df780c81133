package dev.metahook.spring.greeting;

import dev.metahook.api.CustomResource;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import java.util.List;

@Group("example.com")
@Version("v1")
public class Greeting extends CustomResource<Greeting.Spec, Greeting.Status> implements Namespaced {
    public record Spec(String message) {}

    public record Status(int observed, List<Condition> conditions) {}
}
