package dev.metahook.spring.greeting;

import dev.metahook.api.Child;
import dev.metahook.api.Controllers;
import dev.metahook.api.Declaration;
import dev.metahook.api.Update;
import io.fabric8.kubernetes.api.model.ConfigMap;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

@SpringBootApplication
public class GreetingApplication {
    /** The registration, declared once: the controller bean and what Metacontroller must know about it. */
    @Bean
    public Controllers controllers(GreetingController greeting) {
        return Controllers.builder().composite("greeting", Greeting.class, greeting,
                Declaration.children(Child.of(ConfigMap.class, Update.IN_PLACE))).build();
    }
}
