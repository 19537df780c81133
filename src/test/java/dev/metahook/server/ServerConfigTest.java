package dev.metahook.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ServerConfigTest {

    @Test
    void defaultsSuitAContainer() {
        ServerConfig config = ServerConfig.fromEnvironment(Map.of());
        assertEquals(new ServerConfig("0.0.0.0", 8080, 16L << 20, Duration.ofSeconds(120)), config);
    }

    @Test
    void readsEveryVariable() {
        ServerConfig config = ServerConfig.fromEnvironment(Map.of("HOST", "127.0.0.1", "PORT", "9443",
                "MAX_BODY_SIZE", "32Mi", "IDLE_TIMEOUT_SECONDS", "300"));
        assertEquals(new ServerConfig("127.0.0.1", 9443, 32L << 20, Duration.ofSeconds(300)), config);
        assertEquals(1000, ServerConfig.fromEnvironment(Map.of("MAX_BODY_SIZE", "1000")).maxBodySize());
    }

    @Test
    void namesTheVariableThatCannotBeRead() {
        assertEquals("PORT must be a whole number, got 'http'",
                assertThrows(IllegalArgumentException.class, () -> ServerConfig.fromEnvironment(Map.of("PORT", "http"))).getMessage());
        assertEquals("PORT must be between 0 and 65535, got 70000",
                assertThrows(IllegalArgumentException.class, () -> ServerConfig.fromEnvironment(Map.of("PORT", "70000"))).getMessage());
        assertEquals("MAX_BODY_SIZE must be a size in bytes, such as 16777216 or 16Mi, got '16MB'",
                assertThrows(IllegalArgumentException.class, () -> ServerConfig.fromEnvironment(Map.of("MAX_BODY_SIZE", "16MB"))).getMessage());
    }
}
