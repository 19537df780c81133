/**
 * The command line: {@code serve} (the default) starts the hook service with the built-in controllers;
 * {@code render}, {@code check}, {@code manifests} and {@code init} (a new project of a user's) are tools.
 */
package dev.metahook.cli;
