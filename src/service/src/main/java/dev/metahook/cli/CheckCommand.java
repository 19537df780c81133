package dev.metahook.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.internal.sim.Checker;
import dev.metahook.internal.sim.ControllerSpec;
import dev.metahook.internal.sim.HookClient;
import dev.metahook.internal.sim.Ids;
import dev.metahook.internal.sim.KubernetesVersion;
import dev.metahook.internal.sim.MetacontrollerVersion;
import dev.metahook.internal.sim.VersionedCheck;
import dev.metahook.internal.wire.CompositeRequest;
import dev.metahook.internal.wire.Json;
import dev.metahook.internal.wire.MalformedRequestException;
import dev.metahook.testkit.CheckReport;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code check}: drives a hook through a parent's life (or a decorator's target's) under the simulator
 * and prints every breach of Metacontroller's contract, one line each, and the hook calls and child writes of
 * each phase; {@code --format json} or {@code junit} writes the same report for a machine, to stdout or, with
 * {@code --output}, to a file while the text still goes to stdout. Exit code 0 only when there is none; a
 * customize rule that no {@code --related} object matched is one.
 */
final class CheckCommand {
    static final String USAGE = "usage: java -jar metahook.jar check --controller <yaml with a CompositeController or DecoratorController> [--controller-name <name>]"
            + " (--parent <parent or target yaml> | --request <request json>) [--updated-parent <yaml>] [--related <objects yaml>]"
            + " [--url <hook url>]" + HookCredentials.OPTIONS + " [--kubernetes-version <1.29 to 1.37>] [--metacontroller-version <v1.5.0 to v4.17.2>] [--passes <n>] [--timeout <duration, e.g. 10s or 500ms>] [--format text|json|junit] [--output <file>]";

    private CheckCommand() {
    }

    static int run(List<String> args, Map<String, String> env, PrintStream out) {
        Arguments arguments = Arguments.parse(args, Set.of("controller", "controller-name", "parent", "request", "updated-parent", "related",
                "url", "passes", "timeout", "format", "output", "token-file", "cacert", "cert", "key", "kubernetes-version", "metacontroller-version"), USAGE);
        CheckFormat format = CheckFormat.of(arguments.optional("format"), USAGE);
        Path output = arguments.optional("output") == null ? null : Path.of(arguments.optional("output"));
        ControllerSpec spec = timeout(ManifestFiles.controller(arguments.required("controller", USAGE), arguments.optional("controller-name")),
                arguments.optional("timeout"));
        String requestFile = arguments.optional("request");
        if (requestFile != null && spec.decorator()) {
            throw new UsageException("--request takes a CompositeController's request; " + spec.name() + " is a DecoratorController\n" + USAGE);
        }
        ObjectNode parent = requestFile != null ? null : ManifestFiles.one(arguments.required("parent", USAGE));
        ObjectNode updated = arguments.optional("updated-parent") == null ? null : ManifestFiles.one(arguments.optional("updated-parent"));
        List<ObjectNode> related = ManifestFiles.related(arguments.optional("related"));
        int passes = passes(arguments.optional("passes"));
        // closed once the check is done: the hook's server sees the connections kept alive for it end
        try (HookClient hooks = Hooks.of(spec, arguments.optional("url"), HookCredentials.of(arguments, USAGE), env)) {
            JsonNode request = requestFile == null ? null : request(requestFile);
            CheckReport report = VersionedCheck.run(kubernetes(arguments.optional("kubernetes-version"), USAGE),
                    metacontroller(arguments.optional("metacontroller-version")), versions -> {
                Checker checker = new Checker(spec, hooks, Clock.systemUTC(), passes, versions);
                return request != null ? checker.resume(request, updated, related) : checker.check(parent, updated, related);
            });
            String suite = "check " + spec.name() + " " + Ids.text(Ids.of(request != null ? request.path("parent") : parent));
            if (output == null) {
                out.print(format.write(report, suite));
            } else {
                out.print(CheckFormat.text(report));
                write(output, format.write(report, suite));
            }
            out.flush();
            return report.clean() ? 0 : 1;
        }
    }

    /**
     * The Kubernetes minors to check on: the one {@code --kubernetes-version} names, else every span of the supported
     * minors whose API servers store objects alike (today 1.29-1.33, 1.34-1.36 and 1.37).
     */
    static List<KubernetesVersion.Span> kubernetes(String text, String usage) {
        return text == null ? KubernetesVersion.spans() : List.of(KubernetesVersion.Span.of(kubernetesVersion(text, usage)));
    }

    /** The Metacontroller release {@code --metacontroller-version} names, else the newest. */
    private static MetacontrollerVersion metacontroller(String text) {
        try {
            return text == null ? MetacontrollerVersion.NEWEST : MetacontrollerVersion.parse(text);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--metacontroller-version: " + e.getMessage() + "\n" + USAGE);
        }
    }

    static KubernetesVersion kubernetesVersion(String text, String usage) {
        try {
            return KubernetesVersion.parse(text);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--kubernetes-version: " + e.getMessage() + "\n" + usage);
        }
    }

    /** The report to its file (its directory made if missing); a file that cannot be written is a usage error. */
    private static void write(Path file, String report) {
        try {
            if (file.toAbsolutePath().getParent() != null) {
                Files.createDirectories(file.toAbsolutePath().getParent());
            }
            Files.writeString(file, report, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UsageException("--output " + file + ": cannot be written: " + e);
        }
    }

    /** A sync or finalize request body as Metacontroller sent it (its debug log prints them). */
    private static JsonNode request(String file) {
        byte[] body;
        try {
            body = Files.readAllBytes(Path.of(file));
        } catch (NoSuchFileException e) {
            throw new UsageException(file + ": no such file");
        } catch (IOException e) {
            throw new UsageException(file + ": cannot be read: " + e.getMessage());
        }
        try {
            CompositeRequest.read(body);
        } catch (MalformedRequestException e) {
            throw new UsageException(file + ": not a CompositeController request: " + e.getMessage());
        }
        return Json.parse(body);
    }

    /**
     * The time budget of every hook: {@code --timeout} when given, else the controller's
     * {@code webhook.timeout}, else Metacontroller's 10 s (as {@link ControllerSpec} read it).
     */
    private static ControllerSpec timeout(ControllerSpec spec, String text) {
        if (text == null) {
            return spec;
        }
        try {
            return spec.withTimeout(ControllerSpec.duration(text));
        } catch (IllegalArgumentException e) {
            throw new UsageException("--timeout must be a duration such as 10s or 500ms, got '" + text + "'\n" + USAGE);
        }
    }

    private static int passes(String text) {
        if (text == null) {
            return 20;
        }
        try {
            int passes = Integer.parseInt(text);
            if (passes < 2) {
                throw new NumberFormatException();
            }
            return passes;
        } catch (NumberFormatException e) {
            throw new UsageException("--passes must be a whole number of at least 2, got '" + text + "'\n" + USAGE);
        }
    }
}
