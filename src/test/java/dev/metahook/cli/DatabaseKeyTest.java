package dev.metahook.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DatabaseKeyTest {

    @Test
    void readsTheKeyFromTheEnvironment() {
        assertArrayEquals("0123456789abcdef-key".getBytes(StandardCharsets.UTF_8),
                DatabaseKey.fromEnvironment(Map.of("METAHOOK_DATABASE_KEY", "0123456789abcdef-key\n")));
    }

    @Test
    void readsTheKeyFromAMountedSecretFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("key");
        Files.writeString(file, "a-key-from-a-kubernetes-secret\n");
        assertArrayEquals("a-key-from-a-kubernetes-secret".getBytes(StandardCharsets.UTF_8),
                DatabaseKey.fromEnvironment(Map.of("METAHOOK_DATABASE_KEY_FILE", file.toString())));
    }

    @Test
    void makesAKeyAtStartUpWithoutOne() {
        byte[] first = DatabaseKey.fromEnvironment(Map.of());
        assertEquals(32, first.length);
        assertFalse(Arrays.equals(first, DatabaseKey.fromEnvironment(Map.of())));
    }

    @Test
    void refusesShortKeysAndMissingFiles() {
        assertEquals("METAHOOK_DATABASE_KEY must hold at least 16 bytes", assertThrows(IllegalArgumentException.class,
                () -> DatabaseKey.fromEnvironment(Map.of("METAHOOK_DATABASE_KEY", "short"))).getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> DatabaseKey.fromEnvironment(Map.of("METAHOOK_DATABASE_KEY_FILE", "/nonexistent/key")));
    }
}
