package dev.metahook.cli;

import dev.metahook.controllers.database.Database;
import dev.metahook.controllers.database.DatabaseController;
import dev.metahook.controllers.webapp.WebApp;
import dev.metahook.controllers.webapp.WebAppController;
import dev.metahook.engine.Controllers;
import java.time.Clock;

/** The controllers {@code serve} registers out of the box. */
final class BuiltInControllers {
    private BuiltInControllers() {
    }

    static Controllers all(Clock clock, byte[] databaseKey) {
        return Controllers.builder()
                .composite("webapp", WebApp.class, new WebAppController(clock))
                .composite("database", Database.class, new DatabaseController(clock, databaseKey))
                .build();
    }
}
