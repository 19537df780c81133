package dev.metahook.cli;

import dev.metahook.controllers.database.Database;
import dev.metahook.controllers.database.DatabaseController;
import dev.metahook.controllers.webapp.WebApp;
import dev.metahook.controllers.webapp.WebAppController;
import dev.metahook.api.Controllers;

/** The controllers {@code serve} registers out of the box. */
final class BuiltInControllers {
    private BuiltInControllers() {
    }

    static Controllers all(byte[] databaseKey) {
        return Controllers.builder()
                .composite("webapp", WebApp.class, new WebAppController())
                .composite("database", Database.class, new DatabaseController(databaseKey))
                .build();
    }
}
