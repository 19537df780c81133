package dev.metahook.internal.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertThrows;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.metahook.internal.engine.HookEngine;
import dev.metahook.testing.Requests;
import dev.metahook.testing.TestServer;
import java.io.IOException;
import java.math.BigInteger;
import java.security.cert.X509Certificate;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.junit.jupiter.api.io.TempDir;

/** HTTPS from PEM files, a client certificate when a CA bundle is configured, and credentials on top. */
class TlsTest {
    private static final byte[] REQUEST = Requests.bytes(Requests.sync(Requests.widget("hello", 3, "hi"), List.of(), false));

    /** One CA and its certificates for the class: three 2048-bit RSA keys are most of what these tests cost. */
    private static Certificates certificates;

    @TempDir
    Path dir;

    @BeforeAll
    static void createTheCertificates(@TempDir Path certificateDir) throws Exception {
        certificates = new Certificates(certificateDir);
    }

    private static HttpClient client(Certificates certificates, boolean withClientCertificate) throws Exception {
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(withClientCertificate ? Certificates.identity(certificates.clientCert, certificates.clientKey) : null,
                Certificates.trusting(certificates.caCert), null);
        return HttpClient.newBuilder().sslContext(context).version(HttpClient.Version.HTTP_1_1).build();
    }

    private static HttpResponse<String> post(HttpClient client, TestServer server, String authorization) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + server.port() + "/widget/sync"))
                .POST(HttpRequest.BodyPublishers.ofByteArray(REQUEST));
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void servesHooksOverTls() throws Exception {
        ServerConfig config = ServerConfig.defaults().withTls(new ServerConfig.Tls(certificates.serverCert, certificates.serverKey, null));
        try (TestServer server = TestServer.start(TestServer.widgets(), config)) {
            assertEquals(200, post(client(certificates, false), server, null).statusCode());
        }
    }

    @Test
    void requiresAClientCertificateSignedByTheConfiguredCa() throws Exception {
        Path token = Files.writeString(dir.resolve("token"), "s3cret");
        ServerConfig config = ServerConfig.defaults()
                .withTls(new ServerConfig.Tls(certificates.serverCert, certificates.serverKey, certificates.caCert))
                .withAuth(new ServerConfig.Auth(token, null, null));
        try (TestServer server = TestServer.start(TestServer.widgets(), config)) {
            assertEquals(200, post(client(certificates, true), server, "Bearer s3cret").statusCode());
            assertEquals(401, post(client(certificates, true), server, "Bearer wrong").statusCode());
            assertThrows(IOException.class, () -> post(client(certificates, false), server, "Bearer s3cret"));
        }
    }

    @Test
    void probesAndMetricsReachThePlainManagementPortWhileHooksNeedTheClientCertificate() throws Exception {
        ServerConfig config = ServerConfig.defaults()
                .withTls(new ServerConfig.Tls(certificates.serverCert, certificates.serverKey, certificates.caCert))
                .withManagementPort(0);
        try (TestServer server = TestServer.start(TestServer.widgets(), config)) {
            HttpClient plain = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            for (String path : List.of("/healthz", "/readyz", "/metrics")) {
                HttpResponse<String> response = plain.send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + server.managementPort() + path)).build(), HttpResponse.BodyHandlers.ofString());
                assertEquals(200, response.statusCode(), path);
            }
            assertEquals(true, plain.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.managementPort() + "/metrics")).build(),
                    HttpResponse.BodyHandlers.ofString()).body().contains("metahook_hook_in_flight"));
            HttpResponse<String> hook = plain.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.managementPort() + "/widget/sync"))
                    .POST(HttpRequest.BodyPublishers.ofByteArray(REQUEST)).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(404, hook.statusCode(), "no hook on the management port");
            assertEquals("application/problem+json", hook.headers().firstValue("Content-Type").orElse("").replaceAll(";.*", ""));
            assertThrows(IOException.class, () -> post(client(certificates, false), server, null), "the hook port still needs the certificate");
            assertEquals(200, post(client(certificates, true), server, null).statusCode());
        }
    }

    /** README: "HTTPS (TLS 1.2 or newer)": a client of TLS 1.2 or 1.3 gets that protocol, one that offers only TLS 1.1 is refused by the server. */
    @Test
    void speaksTls12And13AndRefusesOlderProtocols() throws Exception {
        ServerConfig config = ServerConfig.defaults().withTls(new ServerConfig.Tls(certificates.serverCert, certificates.serverKey, null));
        try (TestServer server = TestServer.start(TestServer.widgets(), config)) {
            for (String protocol : List.of("TLSv1.2", "TLSv1.3")) {
                SSLContext context = SSLContext.getInstance("TLS");
                context.init(null, Certificates.trusting(certificates.caCert), null);
                try (SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", server.port())) {
                    socket.setEnabledProtocols(new String[] {protocol});
                    socket.startHandshake();
                    assertEquals(protocol, socket.getSession().getProtocol());
                }
            }
            Process openssl = new ProcessBuilder("openssl", "s_client", "-connect", "127.0.0.1:" + server.port(), "-tls1_1",
                    "-cipher", "DEFAULT@SECLEVEL=0").redirectErrorStream(true).start();
            openssl.getOutputStream().close();
            String output = new String(openssl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(openssl.waitFor(30, TimeUnit.SECONDS));
            assertNotEquals(0, openssl.exitValue(), output);
            assertTrue(output.contains("alert protocol version"), "the server, not the client, refuses TLS 1.1: " + output);
        }
    }

    /**
     * cert-manager renews the Secret in place: the new pair is served from the next handshake, with no
     * restart. Files that are then broken, that do not match, or that are gone keep the last good pair
     * in service, and the log says so; a good pair again is taken up again.
     */
    @Test
    void aRenewedCertificateIsServedWithoutARestartAndBrokenOrDeletedFilesKeepTheLastGoodOne() throws Exception {
        Certificates certificates = new Certificates(dir);
        Path served = Files.createDirectories(dir.resolve("secret"));
        Path cert = Files.copy(certificates.serverCert, served.resolve("tls.crt"));
        Path key = Files.copy(certificates.serverKey, served.resolve("tls.key"));
        ServerConfig config = ServerConfig.defaults().withHost("127.0.0.1").withPort(0).withShutdownIdle(java.time.Duration.ZERO)
                .withTls(new ServerConfig.Tls(cert, key, null));
        ListAppender<ILoggingEvent> log = new ListAppender<>();
        log.start();
        Logger logger = (Logger) LoggerFactory.getLogger(TlsConnector.class);
        logger.addAppender(log);
        try (HookServer server = HookServer.start(new HookEngine(TestServer.widgets(), TestServer.CLOCK), HookServer.Options.of(config))) {
            BigInteger first = servedSerial(server.port(), certificates);
            assertFalse(server.reloadTls(), "unchanged files: nothing to do");

            certificates.renewServer(cert, key);
            assertTrue(server.reloadTls());
            BigInteger renewed = servedSerial(server.port(), certificates);
            assertNotEquals(first, renewed, "the renewed certificate is served");
            assertEquals(200, post(client(certificates, false), server.port(), null).statusCode());

            Files.writeString(cert, "-----BEGIN CERTIFICATE-----\nhalf written");
            assertFalse(server.reloadTls());
            assertEquals(renewed, servedSerial(server.port(), certificates), "a broken file keeps the last good pair");
            certificates.certificateForAnotherKey(cert);
            assertFalse(server.reloadTls());
            assertEquals(renewed, servedSerial(server.port(), certificates), "a certificate without its key keeps the last good pair");
            Files.delete(cert);
            Files.delete(key);
            assertFalse(server.reloadTls());
            assertEquals(renewed, servedSerial(server.port(), certificates), "deleted files keep the last good pair");
            assertEquals(200, post(client(certificates, false), server.port(), null).statusCode());
            List<String> warnings = log.list.stream().filter(e -> e.getLevel() == Level.WARN).map(ILoggingEvent::getFormattedMessage).toList();
            assertEquals(3, warnings.size(), warnings.toString());
            assertTrue(warnings.stream().allMatch(w -> w.contains("still serving the certificate loaded before")), warnings.toString());
            assertTrue(warnings.get(1).contains("not the key of this certificate"), warnings.get(1));

            certificates.renewServer(cert, key);
            assertTrue(server.reloadTls(), "good files again");
            assertNotEquals(renewed, servedSerial(server.port(), certificates));
        } finally {
            logger.detachAppender(log);
        }
    }

    /** The serial number of the certificate the server presents in a new handshake (a new context: no session is resumed). */
    private static BigInteger servedSerial(int port, Certificates certificates) throws Exception {
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, Certificates.trusting(certificates.caCert), null);
        try (SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", port)) {
            socket.startHandshake();
            return ((X509Certificate) socket.getSession().getPeerCertificates()[0]).getSerialNumber();
        }
    }

    private static HttpResponse<String> post(HttpClient client, int port, String authorization) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + port + "/widget/sync"))
                .POST(HttpRequest.BodyPublishers.ofByteArray(REQUEST));
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void saysWhichFilesCannotBeUsed() throws Exception {
        Path garbage = Files.writeString(dir.resolve("tls.crt"), "not a certificate");
        assertRefused(new ServerConfig.Tls(garbage, certificates.serverKey, null), "TLS_CERT_FILE " + garbage + ": holds no certificate");
        Path missing = dir.resolve("missing.key");
        assertRefused(new ServerConfig.Tls(certificates.serverCert, missing, null), "TLS_KEY_FILE " + missing + ": not found");
        assertRefused(new ServerConfig.Tls(certificates.serverCert, certificates.clientKey, null),
                "TLS_KEY_FILE " + certificates.clientKey + ": not the key of this certificate (TLS_CERT_FILE " + certificates.serverCert + ")");
        assertRefused(new ServerConfig.Tls(certificates.serverCert, certificates.serverKey, garbage),
                "TLS_CLIENT_CA_FILE " + garbage + ": holds no certificate");
    }

    /** Starting with these files fails, and the message names the file and what is wrong with it. */
    private static void assertRefused(ServerConfig.Tls tls, String names) {
        ServerConfig config = ServerConfig.defaults().withTls(tls);
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> TestServer.start(TestServer.widgets(), config));
        assertTrue(error.getMessage().startsWith(names), error.getMessage());
    }
}
