package example;

import dev.metahook.api.Child;
import dev.metahook.api.Controllers;
import dev.metahook.api.Declaration;
import dev.metahook.api.Update;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

@SpringBootApplication
public class WebAppApplication {
    /** The registration, declared once: the controller bean and what Metacontroller must know about it. */
    @Bean
    public static Controllers controllers(WebAppController webApp) {
        return Controllers.builder().composite("webapp", WebApp.class, webApp,
                Declaration.children(Child.of(Deployment.class, Update.IN_PLACE), Child.of(Service.class, Update.IN_PLACE))).build();
    }

    /** The same registration for metahook-maven-plugin, which calls a method without parameters at build time. */
    public static Controllers registration() {
        return controllers(new WebAppController(new ServiceUrls()));
    }

    public static void main(String[] args) {
        SpringApplication.run(WebAppApplication.class, args);
    }
}
