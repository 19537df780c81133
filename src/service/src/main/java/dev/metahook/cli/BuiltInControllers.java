package dev.metahook.cli;

import dev.metahook.api.Child;
import dev.metahook.api.Controllers;
import dev.metahook.api.Declaration;
import dev.metahook.api.Update;
import dev.metahook.controllers.database.Database;
import dev.metahook.controllers.database.DatabaseController;
import dev.metahook.controllers.webapp.WebApp;
import dev.metahook.controllers.webapp.WebAppController;
import dev.metahook.examples.Examples;
import dev.metahook.internal.server.WarmUp;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
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

    /**
     * The reference controllers' example requests (the WebApp sync, the Database sync and finalize of
     * {@code examples/requests}), made before the service reports ready so its first real call is warm.
     */
    static WarmUp warmUp() {
        return WarmUp.of(List.of(warmUpCall("webapp", "sync"), warmUpCall("database", "sync"),
                warmUpCall("database", "finalize")));
    }

    private static WarmUp.Call warmUpCall(String controller, String hook) {
        String resource = "warm-up/" + controller + "-" + hook + ".json";
        try (InputStream in = BuiltInControllers.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("the jar lacks " + resource);
            }
            return new WarmUp.Call(controller, hook, in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Controllers.Builder builder(byte[] databaseKey) {
        return Controllers.builder()
                .composite("webapp", WebApp.class, new WebAppController(), Declaration.children(
                        Child.of(Deployment.class, Update.IN_PLACE), Child.of(Service.class, Update.IN_PLACE)))
                .composite("database", Database.class, new DatabaseController(databaseKey), Declaration.children(
                        Child.of(Secret.class, Update.ON_DELETE), Child.of(Service.class, Update.IN_PLACE),
                        Child.of(StatefulSet.class, Update.IN_PLACE), Child.of(Job.class, Update.IN_PLACE)));
    }
}
