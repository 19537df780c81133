package dev.metahook.internal.credentials;

import java.nio.file.Path;

/**
 * A credential file that cannot be used. The message is one line, the setting (an environment variable or an
 * option), the file and why: {@code TLS_CERT_FILE /etc/tls/tls.crt: expired on 2026-01-02T00:00:00Z}.
 */
public final class UnusableCredential extends Exception {
    private static final long serialVersionUID = 1L;

    private final String why;

    public UnusableCredential(String setting, Path file, String why) {
        super(setting + " " + file + ": " + why, null, false, false);
        this.why = why;
    }

    /** A file whose content cannot be read as what it should hold: {@code unreadable}'s message names the file first. */
    public UnusableCredential(String setting, Path file, java.security.GeneralSecurityException unreadable) {
        this(setting, file, withoutFile(String.valueOf(unreadable.getMessage()), file.toString()));
    }

    private static String withoutFile(String message, String file) {
        return message.startsWith(file) ? message.substring(file.length()).replaceFirst("^:? ", "") : message;
    }

    /** Why the file cannot be used, without the setting and the file: {@code permission denied}. */
    public String why() {
        return why;
    }
}
