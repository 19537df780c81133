package dev.metahook.cli;

import dev.metahook.Metahook;
import dev.metahook.api.Controllers;
import dev.metahook.ServeOptions;
import dev.metahook.internal.server.WarmUp;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.function.IntSupplier;

/** {@code java -jar metahook.jar [serve]}. */
public final class Main {
    private Main() {
    }

    static final String SERVE_USAGE = "usage: java -jar metahook.jar [serve]\n"
            + "  Serves metahook's built-in controllers (WebApp under /webapp, Database under /database) as Metacontroller hooks:\n"
            + "  hook calls on PORT (8080), probes and /metrics on MANAGEMENT_PORT, until SIGTERM. It takes no options: it is\n"
            + "  configured by the environment (HOST, PORT, AUTH_BEARER_TOKEN_FILE, TLS_CERT_FILE, LOG_FORMAT, ...; docs/configuration.md).\n"
            + "  Without AUTH_* it answers every caller that reaches it.";

    private static final String USAGE = "usage: java -jar metahook.jar [serve | render ... | check ... | init ... | help]\n"
            + "\n"
            + "  serve    serve the built-in controllers (WebApp, Database) as Metacontroller hooks, configured by the\n"
            + "           environment (docs/configuration.md); the command when none is given\n"
            + "  render   show what a hook (metahook's own, or any at --url) answers for a parent, as YAML, and with\n"
            + "           --observed what Metacontroller would change\n"
            + "  check    drive a hook in any language through a parent's whole life under a simulated Metacontroller and\n"
            + "           report every breach of its contract; exit 0 only when clean (--format junit for CI)\n"
            + "  init     write a new Maven project: a custom resource, its controller, a test, the service and its manifests\n"
            + "  help     this text; <command> --help prints a command's options\n"
            + "  --version  print metahook's version (the build's) and exit\n"
            + "\n  " + RenderCommand.USAGE + "\n  " + CheckCommand.USAGE + "\n  " + InitCommand.USAGE;

    public static void main(String[] args) {
        String command = args.length == 0 ? "serve" : args[0];
        List<String> rest = Arrays.asList(args).subList(Math.min(1, args.length), args.length);
        if (Arguments.HELP.contains(command)) {
            System.exit(exitCode(() -> {
                throw UsageException.help(USAGE);
            }));
        }
        switch (command) {
            case "--version", "version" -> {
                System.out.println("metahook " + version());
                System.exit(0);
            }
            case "serve" -> {
                if (!rest.isEmpty()) {
                    System.exit(exitCode(() -> serveArguments(rest)));
                }
                serve();
            }
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

    /**
     * What {@code serve} does with arguments: it takes none (the environment configures it), so a request for help
     * prints its usage and anything else is a usage error; it never starts a server then.
     */
    static int serveArguments(List<String> args) {
        if (Arguments.HELP.contains(args.get(0))) {
            throw UsageException.help(SERVE_USAGE);
        }
        throw new UsageException("serve takes no options, got " + args.get(0) + " (it is configured by the environment)\n" + SERVE_USAGE);
    }

    /** metahook's version, as the build wrote it; {@code unknown} when run from classes the build did not filter. */
    static String version() {
        try (InputStream in = Main.class.getResourceAsStream("version.properties")) {
            if (in != null) {
                Properties properties = new Properties();
                properties.load(in);
                String version = properties.getProperty("version", "");
                if (!version.isBlank() && !version.startsWith("${")) {
                    return version.strip();
                }
            }
        } catch (IOException e) {
            // unknown
        }
        return "unknown";
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
        try {
            // On SIGTERM it drains and exits 0, or 1 when a request that arrived was not answered.
            Metahook.serve(controllers, options.build());
        } catch (RuntimeException e) {
            System.err.println("metahook: " + configurationError(e).orElseThrow(() -> e));
            System.exit(2);
        }
    }
}
