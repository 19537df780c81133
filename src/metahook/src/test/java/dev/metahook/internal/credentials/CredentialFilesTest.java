package dev.metahook.internal.credentials;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A credential file's lines, and why one cannot be used, in the words every setting and option uses. (A file that
 * may not be read is tested in a process that may not read it: {@code CredentialFilesProcessTest} of the service.)
 */
class CredentialFilesTest {
    @TempDir
    Path dir;

    @Test
    void linesAreStrippedWithoutBlankOnesOrAByteOrderMark() throws Exception {
        Path token = Files.write(dir.resolve("token"), "\uFEFF  first \r\n\n second\n".getBytes(StandardCharsets.UTF_8));
        assertEquals(List.of("first", "second"), CredentialFiles.lines("AUTH_BEARER_TOKEN_FILE", token));
    }

    @Test
    void aFileNotFoundEmptyOrADirectoryIsNamedWithWhy() throws Exception {
        Path missing = dir.resolve("missing");
        assertEquals("--token-file " + missing + ": not found", refusal("--token-file", missing));
        Path empty = Files.write(dir.resolve("empty"), "\uFEFF \n\t\n".getBytes(StandardCharsets.UTF_8));
        assertEquals("AUTH_BEARER_TOKEN_FILE " + empty + ": empty", refusal("AUTH_BEARER_TOKEN_FILE", empty));
        assertEquals("TLS_CERT_FILE " + dir + ": a directory, not a file", refusal("TLS_CERT_FILE", dir));
    }

    private static String refusal(String setting, Path file) {
        return assertThrows(UnusableCredential.class, () -> CredentialFiles.read(setting, file)).getMessage();
    }
}
