package dev.metahook.cli;

import dev.metahook.api.Controllers;
import dev.metahook.controllers.database.Database;
import dev.metahook.controllers.database.DatabaseController;
import dev.metahook.controllers.webapp.WebApp;
import dev.metahook.controllers.webapp.WebAppController;
import dev.metahook.examples.Examples;
import java.util.Map;

/** The controllers {@code serve} registers out of the box, and Metacontroller's ported examples when asked. */
final class BuiltInControllers {
    static final String EXAMPLES = "METAHOOK_EXAMPLES";

    private BuiltInControllers() {
    }

    static Controllers all(byte[] databaseKey) {
        return builder(databaseKey).build();
    }

    /** The reference controllers, and the examples too when {@value #EXAMPLES} is {@code true}. */
    static Controllers all(byte[] databaseKey, Map<String, String> env) {
        Controllers.Builder builder = builder(databaseKey);
        return (examplesWanted(env) ? Examples.addTo(builder) : builder).build();
    }

    /**
     * @throws IllegalArgumentException when the variable is set to something other than true or false
     */
    static boolean examplesWanted(Map<String, String> env) {
        String value = env.getOrDefault(EXAMPLES, "").trim();
        return switch (value) {
            case "", "false" -> false;
            case "true" -> true;
            default -> throw new IllegalArgumentException(EXAMPLES + " must be true or false, got '" + value + "'");
        };
    }

    private static Controllers.Builder builder(byte[] databaseKey) {
        return Controllers.builder()
                .composite("webapp", WebApp.class, new WebAppController())
                .composite("database", Database.class, new DatabaseController(databaseKey));
    }
}
