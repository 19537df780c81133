package dev.metahook.spring.greeting;

import org.springframework.stereotype.Service;

/** A team's own service, injected into the controller by Spring. */
@Service
public class Salutation {
    public String of(String message) {
        return message + ", from Spring";
    }
}
