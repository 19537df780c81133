package dev.metahook.spring.greeting;

import dev.metahook.api.CompositeController;
import dev.metahook.api.Conditions;
import dev.metahook.api.Context;
import dev.metahook.api.Result;
import dev.metahook.api.TerminalException;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import org.springframework.stereotype.Component;

@Component
public class GreetingController implements CompositeController<Greeting, Greeting.Status> {
    private final Salutation salutation;

    public GreetingController(Salutation salutation) {
        this.salutation = salutation;
    }

    @Override
    public Result<Greeting.Status> sync(Greeting greeting, Context context) {
        if (greeting.getSpec() == null || greeting.getSpec().message() == null) {
            throw new TerminalException("InvalidSpec", "spec.message: is required");
        }
        ConfigMap map = new ConfigMapBuilder()
                .withNewMetadata().withName(greeting.getMetadata().getName()).endMetadata()
                .addToData("message", salutation.of(greeting.getSpec().message()))
                .build();
        Conditions conditions = Conditions.from(greeting, context.clock()).ready("Written", "the ConfigMap holds the message");
        int observed = context.children().all(ConfigMap.class).size();
        return Result.of(map).deletingUnlisted().withStatus(new Greeting.Status(observed, conditions.list()));
    }
}
