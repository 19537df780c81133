package dev.metahook.cli;

/** A command line or input file that cannot be used; its message is all the user sees. */
final class UsageException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    UsageException(String message) {
        super(message);
    }
}
