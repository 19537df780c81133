package dev.metahook.internal.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ServerConfigTest {

    @Test
    void defaultsSuitAContainer() {
        ServerConfig config = ServerConfig.fromEnvironment(Map.of());
        assertEquals(new ServerConfig("0.0.0.0", 8080, 16L << 20, Duration.ofSeconds(120), Duration.ofSeconds(20),
                ServerConfig.Auth.NONE, ServerConfig.Tls.NONE), config);
    }

    @Test
    void readsEveryVariable() {
        ServerConfig config = ServerConfig.fromEnvironment(Map.ofEntries(Map.entry("HOST", "127.0.0.1"), Map.entry("PORT", "9443"),
                Map.entry("MAX_BODY_SIZE", "32Mi"), Map.entry("IDLE_TIMEOUT_SECONDS", "300"), Map.entry("SHUTDOWN_TIMEOUT_SECONDS", "5"),
                Map.entry("AUTH_BEARER_TOKEN_FILE", "/var/run/token"), Map.entry("TLS_CERT_FILE", "/tls/tls.crt"),
                Map.entry("TLS_KEY_FILE", "/tls/tls.key"), Map.entry("TLS_CLIENT_CA_FILE", "/tls/ca.crt"), Map.entry("MANAGEMENT_PORT", "8081")));
        assertEquals(new ServerConfig("127.0.0.1", 9443, 32L << 20, Duration.ofSeconds(300), Duration.ofSeconds(5),
                new ServerConfig.Auth(Path.of("/var/run/token"), null, null),
                new ServerConfig.Tls(Path.of("/tls/tls.crt"), Path.of("/tls/tls.key"), Path.of("/tls/ca.crt")), 8081), config);
        assertEquals(1000, ServerConfig.fromEnvironment(Map.of("MAX_BODY_SIZE", "1000")).maxBodySize());
        ServerConfig drain = ServerConfig.fromEnvironment(Map.of("SHUTDOWN_IDLE_SECONDS", "0", "ACCEPT_QUEUE_SIZE", "4096"));
        assertEquals(Duration.ZERO, drain.shutdownIdle());
        assertEquals(4096, drain.acceptQueueSize());
        assertEquals(Duration.ofSeconds(5), ServerConfig.defaults().shutdownIdle());
        assertEquals(1024, ServerConfig.defaults().acceptQueueSize(), "not Java's 50: a burst of reconnects after a rollout fits");
    }

    @Test
    void namesTheVariableThatCannotBeRead() {
        assertEquals("PORT must be a whole number, got 'http'",
                assertThrows(IllegalArgumentException.class, () -> ServerConfig.fromEnvironment(Map.of("PORT", "http"))).getMessage());
        assertEquals("PORT must be between 0 and 65535, got 70000",
                assertThrows(IllegalArgumentException.class, () -> ServerConfig.fromEnvironment(Map.of("PORT", "70000"))).getMessage());
        assertEquals("MAX_BODY_SIZE must be a size in bytes, such as 16777216 or 16Mi, got '16MB'",
                assertThrows(IllegalArgumentException.class, () -> ServerConfig.fromEnvironment(Map.of("MAX_BODY_SIZE", "16MB"))).getMessage());
        for (String tooLarge : new String[] {"2Gi", "2147483648"}) {
            assertEquals("MAX_BODY_SIZE must be between 1 and 1Gi (1073741824 bytes), got 2147483648", assertThrows(
                    IllegalArgumentException.class, () -> ServerConfig.fromEnvironment(Map.of("MAX_BODY_SIZE", tooLarge))).getMessage());
        }
        assertEquals(1L << 30, ServerConfig.fromEnvironment(Map.of("MAX_BODY_SIZE", "1Gi")).maxBodySize());
        assertEquals("MANAGEMENT_PORT must differ from PORT, both are 8080", assertThrows(IllegalArgumentException.class,
                () -> ServerConfig.fromEnvironment(Map.of("MANAGEMENT_PORT", "8080"))).getMessage());
        assertEquals("MANAGEMENT_PORT must be between 0 and 65535, got 70000", assertThrows(IllegalArgumentException.class,
                () -> ServerConfig.fromEnvironment(Map.of("MANAGEMENT_PORT", "70000"))).getMessage());
        assertEquals("SHUTDOWN_IDLE_SECONDS must not be negative, got -1", assertThrows(IllegalArgumentException.class,
                () -> ServerConfig.fromEnvironment(Map.of("SHUTDOWN_IDLE_SECONDS", "-1"))).getMessage());
        assertEquals("ACCEPT_QUEUE_SIZE must be between 1 and 65535, got 0", assertThrows(IllegalArgumentException.class,
                () -> ServerConfig.fromEnvironment(Map.of("ACCEPT_QUEUE_SIZE", "0"))).getMessage());
        assertEquals("TLS_CERT_FILE and TLS_KEY_FILE go together",
                assertThrows(IllegalArgumentException.class, () -> ServerConfig.fromEnvironment(Map.of("TLS_CERT_FILE", "/a"))).getMessage());
        assertEquals("AUTH_BASIC_USERNAME_FILE and AUTH_BASIC_PASSWORD_FILE go together", assertThrows(IllegalArgumentException.class,
                () -> ServerConfig.fromEnvironment(Map.of("AUTH_BASIC_USERNAME_FILE", "/a"))).getMessage());
    }

    /** Kubernetes sets MANAGEMENT_PORT=tcp://IP:PORT in every pod of a namespace with a Service named management. */
    @Test
    void aPortHoldingAServiceLinkNamesTheServiceThatSetIt() {
        ServiceLinkException link = assertThrows(ServiceLinkException.class,
                () -> ServerConfig.fromEnvironment(Map.of("MANAGEMENT_PORT", "tcp://10.0.0.7:8081")));
        assertEquals("MANAGEMENT_PORT is 'tcp://10.0.0.7:8081', a service link: Kubernetes sets it in every pod of a namespace that has"
                + " a Service named management; set enableServiceLinks: false in the pod spec", link.getMessage());
        assertThrows(ServiceLinkException.class, () -> ServerConfig.fromEnvironment(Map.of("MANAGEMENT_PORT", "udp://[fd00:10:96::7]:53")));
        // no Service sets PORT, and a URL of another scheme is no link
        assertEquals("PORT must be a whole number, got 'tcp://10.0.0.7:8080'", assertThrows(IllegalArgumentException.class,
                () -> ServerConfig.fromEnvironment(Map.of("PORT", "tcp://10.0.0.7:8080"))).getMessage());
        assertEquals("MANAGEMENT_PORT must be a whole number, got 'http://10.0.0.7:8081'", assertThrows(IllegalArgumentException.class,
                () -> ServerConfig.fromEnvironment(Map.of("MANAGEMENT_PORT", "http://10.0.0.7:8081"))).getMessage());
    }

    @Test
    void aServiceLinkNamesTheServiceWithItsDashes() {
        assertEquals("METAHOOK_MANAGEMENT_PORT is 'tcp://10.0.0.9:8081', a service link: Kubernetes sets it in every pod of a namespace"
                + " that has a Service named metahook-management", new ServiceLinkException("METAHOOK_MANAGEMENT_PORT", "tcp://10.0.0.9:8081").cause());
        assertEquals(true, ServiceLinkException.isLink("METAHOOK_PORT", "tcp://10.0.0.9:80"));
        assertEquals(false, ServiceLinkException.isLink("METAHOOK_PORT", "9090"));
        assertEquals(false, ServiceLinkException.isLink("_PORT", "tcp://10.0.0.9:80"));
        assertEquals(false, ServiceLinkException.isLink("METAHOOK_PORT", "tcp://metahook:80"));
    }
}
