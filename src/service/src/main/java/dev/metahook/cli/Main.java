package dev.metahook.cli;

import dev.metahook.Metahook;
import dev.metahook.api.Controllers;
import dev.metahook.ServeOptions;
import dev.metahook.Server;
import dev.metahook.internal.server.WarmUp;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.IntSupplier;

/** {@code java -jar metahook.jar [serve]}. */
public final class Main {
    private Main() {
    }

    private static final String USAGE = "usage: java -jar metahook.jar [serve | render ... | check ... | init ... | help]\n  "
            + RenderCommand.USAGE + "\n  " + CheckCommand.USAGE + "\n  " + InitCommand.USAGE;

    public static void main(String[] args) {
        String command = args.length == 0 ? "serve" : args[0];
        List<String> rest = Arrays.asList(args).subList(Math.min(1, args.length), args.length);
        if (Arguments.HELP.contains(command)) {
            System.exit(exitCode(() -> {
                throw UsageException.help(USAGE);
            }));
        }
        switch (command) {
            case "serve" -> serve();
            case "render" -> System.exit(exitCode(() -> RenderCommand.run(rest, System.getenv(), System.out, System.err)));
            case "manifests" -> {
                System.err.println("metahook: manifests are written at build time now, by metahook-maven-plugin's manifests goal"
                        + " (docs/deploy.md); the built-in service's are in metacontroller/");
                System.exit(2);
            }
            case "init" -> System.exit(exitCode(() -> InitCommand.run(rest, System.out)));
            case "check" -> System.exit(exitCode(() -> CheckCommand.run(rest, System.getenv(), System.out)));
            default -> {
                System.err.println("metahook: unknown command " + command + "\n" + USAGE);
                System.exit(2);
            }
        }
    }

    /**
     * Runs a command; a usage or file error is one line on stderr and exit code 2, never a stack trace;
     * a request for help is the usage on stdout and exit code 0.
     */
    static int exitCode(IntSupplier command) {
        try {
            return command.getAsInt();
        } catch (UsageException e) {
            if (e.isHelp()) {
                System.out.println(e.getMessage());
                return 0;
            }
            System.err.println("metahook: " + e.getMessage());
            return 2;
        } catch (RuntimeException e) {
            System.err.println("metahook: " + e.getClass().getSimpleName() + ": " + e.getMessage());
            return 2;
        }
    }

    /** The message of a configuration file the server could not use (credentials, certificates), however deep it was wrapped. */
    static Optional<String> configurationError(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof IllegalArgumentException) {
                return Optional.of(cause.getMessage());
            }
        }
        return Optional.empty();
    }

    private static void serve() {
        ServeOptions.Builder options;
        Controllers controllers;
        try {
            options = ServeOptions.fromEnvironment();
            controllers = BuiltInControllers.all(DatabaseKey.fromEnvironment(System.getenv()), System.getenv());
        } catch (IllegalArgumentException e) {
            System.err.println("metahook: " + e.getMessage());
            System.exit(2);
            return;
        }
        for (WarmUp.Call call : BuiltInControllers.warmUp().calls()) {
            options.warmUp(call.controller(), call.hook(), call.body());
        }
        Server server;
        try {
            server = Metahook.serve(controllers, options.build());
        } catch (RuntimeException e) {
            System.err.println("metahook: " + configurationError(e).orElseThrow(() -> e));
            System.exit(2);
            return;
        }
        // SIGTERM would end the JVM with 143: once the drain (run by Metahook's shutdown hook) is
        // over, a drain that answered every call is a clean exit, 0.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> Runtime.getRuntime().halt(server.shutdown() ? 0 : 1),
                "metahook-exit"));
    }
}
