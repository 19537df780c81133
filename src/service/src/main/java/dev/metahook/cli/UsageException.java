package dev.metahook.cli;

/**
 * A command line or input file that cannot be used; its message is all the user sees. A request for
 * help ({@link #help}) is one too: its message is the usage, printed to stdout with exit code 0.
 */
final class UsageException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final boolean help;

    UsageException(String message) {
        this(message, false);
    }

    private UsageException(String message, boolean help) {
        super(message);
        this.help = help;
    }

    /** {@code --help} (or {@code -h}, or {@code help}): the usage, and no error. */
    static UsageException help(String usage) {
        return new UsageException(usage, true);
    }

    boolean isHelp() {
        return help;
    }
}
