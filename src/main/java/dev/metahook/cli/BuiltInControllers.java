package dev.metahook.cli;

import dev.metahook.engine.Controllers;

/** The controllers {@code serve} registers out of the box. */
final class BuiltInControllers {
    private BuiltInControllers() {
    }

    static Controllers all() {
        return Controllers.builder().build();
    }
}
