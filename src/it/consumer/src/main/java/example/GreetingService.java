package example;

import dev.metahook.Metahook;
import dev.metahook.api.Child;
import dev.metahook.api.Controllers;
import dev.metahook.api.Declaration;
import dev.metahook.api.Update;
import io.fabric8.kubernetes.api.model.ConfigMap;

public final class GreetingService {
    private GreetingService() {
    }

    /** The controller and what Metacontroller must know about it: a Greeting's ConfigMaps, updated in place. */
    public static Controllers controllers() {
        return Controllers.builder().composite("greeting", Greeting.class, new GreetingController(),
                Declaration.children(Child.of(ConfigMap.class, Update.IN_PLACE))).build();
    }

    public static void main(String[] args) {
        Metahook.serve(controllers());
    }
}
