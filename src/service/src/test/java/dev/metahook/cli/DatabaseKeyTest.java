package dev.metahook.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

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
    void aKeyMadeOutsideKubernetesIsNoWarning() {
        assertEquals(List.of(Level.INFO), levelsLoggedWhileMaking(Map.of()));
    }

    @Test
    void aKeyMadeInAPodIsAWarning() {
        assertEquals(List.of(Level.WARN), levelsLoggedWhileMaking(Map.of("KUBERNETES_SERVICE_HOST", "10.96.0.1")));
    }

    private static List<Level> levelsLoggedWhileMaking(Map<String, String> env) {
        Logger logger = (Logger) LoggerFactory.getLogger(DatabaseKey.class);
        ListAppender<ILoggingEvent> appender = new ListAppender<>();
        appender.start();
        logger.addAppender(appender);
        try {
            DatabaseKey.fromEnvironment(env);
            return appender.list.stream().map(ILoggingEvent::getLevel).toList();
        } finally {
            logger.detachAppender(appender);
        }
    }

    /**
     * The real service, given the key file the Deployment names but an empty mount (what a missing
     * optional Secret gives): it refuses to start, exit code 2, naming the variable. Hence the Secret is required.
     */
    @Test
    void theServiceRefusesToStartWithoutTheKeyFileItIsGiven(@TempDir Path mount) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder builder = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), Main.class.getName(), "serve");
        builder.environment().remove("METAHOOK_DATABASE_KEY");
        builder.environment().put("METAHOOK_DATABASE_KEY_FILE", mount.resolve("key").toString());
        builder.environment().put("HOST", "127.0.0.1");
        builder.environment().put("PORT", "0");
        Process process = builder.redirectErrorStream(true).start();
        try {
            assertTrue(process.waitFor(120, TimeUnit.SECONDS), "the service exits");
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(2, process.exitValue(), output);
            assertTrue(output.contains("METAHOOK_DATABASE_KEY_FILE cannot be read"), output);
        } finally {
            process.destroyForcibly();
        }
    }

    @Test
    void refusesShortKeysAndMissingFiles() {
        assertEquals("METAHOOK_DATABASE_KEY must hold at least 16 bytes", assertThrows(IllegalArgumentException.class,
                () -> DatabaseKey.fromEnvironment(Map.of("METAHOOK_DATABASE_KEY", "short"))).getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> DatabaseKey.fromEnvironment(Map.of("METAHOOK_DATABASE_KEY_FILE", "/nonexistent/key")));
    }
}
