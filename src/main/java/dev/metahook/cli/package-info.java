/** The command line: {@code serve} (the default) starts the hook service with the built-in controllers. */
package dev.metahook.cli;
