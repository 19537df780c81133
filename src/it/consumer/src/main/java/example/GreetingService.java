package example;

import dev.metahook.Metahook;
import dev.metahook.api.Controllers;

public final class GreetingService {
    private GreetingService() {
    }

    public static void main(String[] args) {
        Metahook.serve(Controllers.builder().composite("greeting", Greeting.class, new GreetingController()).build());
    }
}
