package dev.metahook.cli;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code --name value} options of a subcommand. Hand-written rather than a parsing library: three
 * commands with a handful of string options, and the jar starts faster without one.
 */
final class Arguments {
    private final Map<String, String> values = new HashMap<>();

    private Arguments() {
    }

    /** The words that ask for the usage instead of running a command. */
    static final Set<String> HELP = Set.of("--help", "-h", "help");

    static Arguments parse(List<String> args, Set<String> known, String usage) {
        Arguments arguments = new Arguments();
        for (int i = 0; i < args.size(); i++) {
            String name = args.get(i);
            if (HELP.contains(name)) {
                throw UsageException.help(usage);
            }
            if (!name.startsWith("--") || !known.contains(name.substring(2))) {
                throw new UsageException("unknown option " + name + "\n" + usage);
            }
            if (i + 1 >= args.size()) {
                throw new UsageException(name + " needs a value\n" + usage);
            }
            arguments.values.put(name.substring(2), args.get(++i));
        }
        return arguments;
    }

    String required(String name, String usage) {
        String value = values.get(name);
        if (value == null) {
            throw new UsageException("--" + name + " is required\n" + usage);
        }
        return value;
    }

    String optional(String name) {
        return values.get(name);
    }
}
