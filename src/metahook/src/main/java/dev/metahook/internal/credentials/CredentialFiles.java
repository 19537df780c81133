package dev.metahook.internal.credentials;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;

/**
 * Reads a credential file (a mounted Secret's token, certificate, key or CA bundle) and says why it cannot be
 * read in the words of this class: {@value #NOT_FOUND}, {@value #PERMISSION_DENIED}, {@value #A_DIRECTORY},
 * {@value #EMPTY}.
 */
public final class CredentialFiles {
    public static final String NOT_FOUND = "not found";
    public static final String PERMISSION_DENIED = "permission denied";
    public static final String A_DIRECTORY = "a directory, not a file";
    public static final String EMPTY = "empty";
    private static final String BYTE_ORDER_MARK = "\uFEFF";

    private CredentialFiles() {
    }

    /** The file's bytes; a file that is not there, cannot be read, or holds nothing but white space is refused. */
    public static byte[] read(String setting, Path file) throws UnusableCredential {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new UnusableCredential(setting, file, NOT_FOUND);
        } catch (AccessDeniedException e) {
            throw new UnusableCredential(setting, file, PERMISSION_DENIED);
        } catch (IOException e) {
            throw new UnusableCredential(setting, file, Files.isDirectory(file) ? A_DIRECTORY : "cannot be read (" + e.getMessage() + ")");
        }
        if (text(bytes).isBlank()) {
            throw new UnusableCredential(setting, file, EMPTY);
        }
        return bytes;
    }

    /** The lines of the file that are not blank, stripped, without the UTF-8 byte order mark an editor or kubectl may keep. */
    public static List<String> lines(String setting, Path file) throws UnusableCredential {
        return lines(read(setting, file));
    }

    /** The lines of {@code content} that are not blank, stripped, without a byte order mark. */
    public static List<String> lines(byte[] content) {
        return text(content).lines().map(String::strip).filter(line -> !line.isEmpty()).toList();
    }

    /** UTF-8 text without a leading byte order mark. */
    public static String text(byte[] bytes) {
        String text = new String(bytes, StandardCharsets.UTF_8);
        return text.startsWith(BYTE_ORDER_MARK) ? text.substring(1) : text;
    }
}
