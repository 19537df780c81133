package dev.metahook.internal.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.metahook.internal.engine.HookEngine;
import dev.metahook.testing.TestServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.Server;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * The hook port's certificate chain is checked before it is served, at start-up and on renewal: a certificate out of
 * its validity that a client verifies (its own, or a CA of the chain it needs), or a key that is not its key, is refused
 * with the file and the reason named; a chain a Go client accepts is served as the file holds it. The chain's expiry
 * is a gauge and, when near, a warning.
 */
class ServingCertificateTest {
    private static final String INTERMEDIATE = "CN=metahook test intermediate";

    private static Certificates certificates;
    private static Path expired;
    private static Path notYetValid;
    private static Certificates.Authority intermediate;
    private static Path expiredIntermediate;
    private static Path futureIntermediate;
    private static Path leaf;

    @TempDir
    Path dir;
    private final ListAppender<ILoggingEvent> log = new ListAppender<>();
    private final Logger logger = (Logger) LoggerFactory.getLogger(TlsConnector.class);

    @BeforeAll
    static void createTheCertificates(@TempDir Path certificateDir) throws Exception {
        certificates = new Certificates(certificateDir);
        expired = certificates.expired(certificateDir.resolve("expired.crt"), certificates.serverKey, "IP:127.0.0.1");
        notYetValid = certificates.notYetValid(certificateDir.resolve("future.crt"), certificates.serverKey, "IP:127.0.0.1");
        Instant now = Instant.now();
        Path key = certificates.newKey(certificateDir.resolve("intermediate.key"));
        intermediate = certificates.intermediate(certificates.ca(), "metahook test intermediate", key, now.minus(Duration.ofDays(1)),
                now.plus(Duration.ofDays(60)));
        expiredIntermediate = certificates.intermediate(certificates.ca(), "metahook test intermediate", key,
                Certificates.EXPIRED_FROM, Certificates.EXPIRED_ON).cert();
        futureIntermediate = certificates.intermediate(certificates.ca(), "metahook test intermediate", key,
                Certificates.FUTURE_FROM, Certificates.FUTURE_UNTIL).cert();
        leaf = certificates.certificate(intermediate, certificateDir.resolve("leaf.crt"), certificates.serverKey, now.minus(Duration.ofDays(1)),
                now.plus(Duration.ofDays(30)), "IP:127.0.0.1");
    }

    @BeforeEach
    void listen() {
        log.start();
        logger.addAppender(log);
    }

    @AfterEach
    void stopListening() {
        logger.detachAppender(log);
    }

    @Test
    void anExpiredCertificateStopsTheStartNamingTheFileAndTheDate() {
        assertRefused(new ServerConfig.Tls(expired, certificates.serverKey, null), "TLS_CERT_FILE " + expired + ": expired on 2025-01-02T00:00:00Z");
    }

    @Test
    void aCertificateNotYetValidStopsTheStartNamingTheFileAndTheDate() {
        assertRefused(new ServerConfig.Tls(notYetValid, certificates.serverKey, null),
                "TLS_CERT_FILE " + notYetValid + ": not valid before 2099-01-01T00:00:00Z");
    }

    /** A leaf still valid under an intermediate that has expired fails every Go client's handshake: it is not served. */
    @Test
    void aChainWhoseIntermediateIsOutOfItsValidityStopsTheStartNamingItsSubjectAndDate() throws Exception {
        Path expiredChain = Certificates.chain(dir.resolve("expired-chain.crt"), leaf, expiredIntermediate);
        assertRefused(new ServerConfig.Tls(expiredChain, certificates.serverKey, null),
                "TLS_CERT_FILE " + expiredChain + ": certificate 2 (" + INTERMEDIATE + ") expired on 2025-01-02T00:00:00Z");
        Path futureChain = Certificates.chain(dir.resolve("future-chain.crt"), leaf, certificates.caCert, futureIntermediate);
        assertRefused(new ServerConfig.Tls(futureChain, certificates.serverKey, null),
                "TLS_CERT_FILE " + futureChain + ": certificate 3 (" + INTERMEDIATE + ") not valid before 2099-01-01T00:00:00Z");
    }

    /**
     * What a Go client accepts is served, and sent as the file holds it: the CAs out of issuer order, the root included,
     * an expired intermediate beside its renewal (same name and key), which a client passes over.
     */
    @Test
    void aChainInAnyOrderWithItsRootAndAnExpiredIntermediateBesideItsRenewalIsServedAsTheFileHoldsIt() throws Exception {
        Path chain = Certificates.chain(dir.resolve("chain.crt"), leaf, certificates.caCert, expiredIntermediate, intermediate.cert());
        ServerConfig config = ServerConfig.defaults().withHost("127.0.0.1").withPort(0).withManagementPort(0).withShutdownIdle(Duration.ZERO)
                .withTls(new ServerConfig.Tls(chain, certificates.serverKey, null));
        try (HookServer server = HookServer.start(new HookEngine(TestServer.widgets(), TestServer.CLOCK), HookServer.Options.of(config))) {
            assertEquals(PemFiles.certificates(chain), served(server));
        }
    }

    @Test
    void aKeyThatIsNotTheCertificatesStopsTheStartNamingBothFiles() {
        assertRefused(new ServerConfig.Tls(certificates.serverCert, certificates.clientKey, null),
                "TLS_KEY_FILE " + certificates.clientKey + ": not the key of this certificate (TLS_CERT_FILE " + certificates.serverCert + ")");
    }

    @Test
    void filesNotFoundOrEmptyStopTheStartNamingTheFile() throws Exception {
        Path missing = dir.resolve("missing.key");
        assertRefused(new ServerConfig.Tls(certificates.serverCert, missing, null), "TLS_KEY_FILE " + missing + ": not found");
        Path empty = Files.writeString(dir.resolve("ca.crt"), "\n  \n");
        assertRefused(new ServerConfig.Tls(certificates.serverCert, certificates.serverKey, empty), "TLS_CLIENT_CA_FILE " + empty + ": empty");
        assertRefused(new ServerConfig.Tls(dir, certificates.serverKey, null), "TLS_CERT_FILE " + dir + ": a directory, not a file");
    }

    /**
     * A renewal out of its validity, or with a key not its own, is refused as a broken file is: the last good pair
     * stays in service, a warning says which file and why, once per problem, and a counter counts each refusal.
     */
    @Test
    void renewalsOutOfTheirValidityOrWithAnotherKeyAreRefusedCountedAndSaid() throws Exception {
        Path secret = Files.createDirectories(dir.resolve("secret"));
        Path cert = Files.copy(certificates.serverCert, secret.resolve("tls.crt"));
        Path key = Files.copy(certificates.serverKey, secret.resolve("tls.key"));
        String validUntil = PemFiles.certificates(cert).get(0).getNotAfter().toInstant().toString();
        ServerConfig config = ServerConfig.defaults().withHost("127.0.0.1").withPort(0).withManagementPort(0).withShutdownIdle(Duration.ZERO)
                .withTls(new ServerConfig.Tls(cert, key, null));
        try (HookServer server = HookServer.start(new HookEngine(TestServer.widgets(), TestServer.CLOCK), HookServer.Options.of(config))) {
            assertEquals(0, refusals(server));
            Files.write(cert, Files.readAllBytes(expired));
            assertFalse(server.reloadTls());
            assertFalse(server.reloadTls(), "the same files again: refused, not counted again");
            Files.write(cert, Files.readAllBytes(notYetValid));
            assertFalse(server.reloadTls());
            Files.write(cert, Files.readAllBytes(certificates.clientCert));
            assertFalse(server.reloadTls());
            assertEquals(List.of(
                    "TLS_CERT_FILE " + cert + ": expired on 2025-01-02T00:00:00Z: a renewal refused, still serving the certificate loaded before"
                            + " (valid until " + validUntil + ")",
                    "TLS_CERT_FILE " + cert + ": not valid before 2099-01-01T00:00:00Z: a renewal refused, still serving the certificate loaded"
                            + " before (valid until " + validUntil + ")",
                    "TLS_KEY_FILE " + key + ": not the key of this certificate (TLS_CERT_FILE " + cert + "): a renewal refused, still serving the"
                            + " certificate loaded before (valid until " + validUntil + ")"),
                    warnings().stream().filter(w -> w.contains("renewal refused")).toList());
            assertEquals(3, refusals(server));
            assertTrue(scrape(server).contains("\nmetahook_tls_renewals_refused_total 3.0\n"), scrape(server));
        }
    }

    /** A renewed chain with an intermediate out of its validity is refused as a broken file is: counted, said, the last good pair served. */
    @Test
    void aRenewedChainWhoseIntermediateHasExpiredIsRefusedAndTheLastGoodPairServed() throws Exception {
        Path secret = Files.createDirectories(dir.resolve("secret"));
        Path cert = Files.copy(certificates.serverCert, secret.resolve("tls.crt"));
        Path key = Files.copy(certificates.serverKey, secret.resolve("tls.key"));
        String validUntil = PemFiles.certificates(cert).get(0).getNotAfter().toInstant().toString();
        ServerConfig config = ServerConfig.defaults().withHost("127.0.0.1").withPort(0).withManagementPort(0).withShutdownIdle(Duration.ZERO)
                .withTls(new ServerConfig.Tls(cert, key, null));
        try (HookServer server = HookServer.start(new HookEngine(TestServer.widgets(), TestServer.CLOCK), HookServer.Options.of(config))) {
            Certificates.chain(cert, leaf, expiredIntermediate);
            assertFalse(server.reloadTls());
            assertEquals(List.of("TLS_CERT_FILE " + cert + ": certificate 2 (" + INTERMEDIATE + ") expired on 2025-01-02T00:00:00Z: a renewal"
                    + " refused, still serving the certificate loaded before (valid until " + validUntil + ")"), warnings());
            assertEquals(1, refusals(server));
            assertTrue(scrape(server).contains("\nmetahook_tls_renewals_refused_total 1.0\n"), scrape(server));
            assertEquals(PemFiles.certificates(certificates.serverCert), served(server));

            Certificates.chain(cert, leaf, intermediate.cert());
            assertTrue(server.reloadTls());
            assertEquals(PemFiles.certificates(cert), served(server));
        }
    }

    /** The served certificate's seconds to its notAfter, as a gauge, read between two readings of the clock. */
    @Test
    void theSecondsUntilTheServedCertificateExpiresAreAGauge() throws Exception {
        Instant notAfter = PemFiles.certificates(certificates.serverCert).get(0).getNotAfter().toInstant();
        ServerConfig config = ServerConfig.defaults().withHost("127.0.0.1").withPort(0).withManagementPort(0).withShutdownIdle(Duration.ZERO)
                .withTls(new ServerConfig.Tls(certificates.serverCert, certificates.serverKey, null));
        try (HookServer server = HookServer.start(new HookEngine(TestServer.widgets(), TestServer.CLOCK), HookServer.Options.of(config))) {
            long before = Duration.between(Instant.now(), notAfter).toSeconds();
            double seconds = server.meterRegistry().get("metahook.tls.certificate.expiry").gauge().value();
            long after = Duration.between(Instant.now(), notAfter).toSeconds();
            assertTrue(seconds <= before + 1 && seconds >= after - 1, before + " >= " + seconds + " >= " + after);
            assertTrue(scrape(server).contains("\nmetahook_tls_certificate_expiry_seconds "), scrape(server));
        }
    }

    /**
     * A certificate that expires within {@code TLS_EXPIRY_WARNING_DAYS} is a warning at start-up and at each daily
     * look; 0 says nothing until it has expired, and then the daily look says that.
     */
    @Test
    void aCertificateNearItsExpiryIsAWarningAtStartAndAtTheDailyLook() throws Exception {
        Instant now = Instant.now();
        Instant notAfter = now.plus(Duration.ofDays(3)).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        Path soon = certificates.certificate(dir.resolve("soon.crt"), certificates.serverKey, now.minus(Duration.ofHours(1)), notAfter, "IP:127.0.0.1");
        String expires = "TLS_CERT_FILE " + soon + ": the certificate served expires on " + notAfter
                + ", within TLS_EXPIRY_WARNING_DAYS (7 days): renew it before then";
        try (TlsConnector tls = TlsConnector.create(new Server(), new HttpConfiguration(),
                new ServerConfig.Tls(soon, certificates.serverKey, null), new SimpleMeterRegistry())) {
            assertEquals(List.of(expires), warnings(), "3 days are within the default 7");
            tls.warnIfExpiring(now.plus(Duration.ofDays(1)));
            assertEquals(List.of(expires, expires), warnings(), "and a day later");
        }
        log.list.clear();
        try (TlsConnector tls = TlsConnector.create(new Server(), new HttpConfiguration(),
                new ServerConfig.Tls(soon, certificates.serverKey, null, 2), new SimpleMeterRegistry())) {
            assertEquals(List.of(), warnings(), "3 days are not within 2");
            tls.warnIfExpiring(now.plus(Duration.ofDays(2)));
            assertEquals(List.of(expires.replace("(7 days)", "(2 days)")), warnings(), "2 days later, they are");
        }
        log.list.clear();
        try (TlsConnector tls = TlsConnector.create(new Server(), new HttpConfiguration(),
                new ServerConfig.Tls(soon, certificates.serverKey, null, 0), new SimpleMeterRegistry())) {
            assertEquals(List.of(), warnings(), "0 days: no warning before it expires");
            tls.warnIfExpiring(notAfter.plusSeconds(1));
            assertEquals(List.of("TLS_CERT_FILE " + soon + ": the certificate served expired on " + notAfter
                    + ": every handshake fails until it is renewed"), warnings());
        }
        log.list.clear();
        try (TlsConnector tls = TlsConnector.create(new Server(), new HttpConfiguration(),
                new ServerConfig.Tls(certificates.serverCert, certificates.serverKey, null), new SimpleMeterRegistry())) {
            assertEquals(List.of(), warnings(), "a certificate of 30 days is not within 7");
        }
    }

    /**
     * The warning and the gauge follow the chain's first certificate to expire that a client verifies, and name it: an
     * intermediate that expires before the certificate served; not one beside a renewal that outlives it, nor one no
     * way up goes through.
     */
    @Test
    void theWarningAndTheGaugeFollowTheFirstCertificateOfTheChainToExpireThatAClientVerifies() throws Exception {
        Instant now = Instant.now();
        Instant notAfter = now.plus(Duration.ofDays(3)).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        Path soon = certificates.intermediate(certificates.ca(), "metahook test intermediate", intermediate.key(), now.minus(Duration.ofHours(1)),
                notAfter).cert();
        Path chain = Certificates.chain(dir.resolve("soon-chain.crt"), leaf, soon);
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        try (TlsConnector tls = TlsConnector.create(new Server(), new HttpConfiguration(), new ServerConfig.Tls(chain, certificates.serverKey, null),
                meters)) {
            assertEquals(List.of("TLS_CERT_FILE " + chain + ": certificate 2 (" + INTERMEDIATE + ") of the chain served expires on " + notAfter
                    + ", within TLS_EXPIRY_WARNING_DAYS (7 days): renew it before then"), warnings());
            long before = Duration.between(Instant.now(), notAfter).toSeconds();
            double seconds = meters.get("metahook.tls.certificate.expiry").gauge().value();
            assertTrue(seconds <= before + 1 && seconds >= before - 60, before + " ~ " + seconds);
            log.list.clear();
            tls.warnIfExpiring(notAfter.plusSeconds(1));
            assertEquals(List.of("TLS_CERT_FILE " + chain + ": certificate 2 (" + INTERMEDIATE + ") of the chain served expired on " + notAfter
                    + ": every handshake fails until it is renewed"), warnings());
        }
        log.list.clear();
        Path unrelated = certificates.certificate(dir.resolve("unrelated.crt"), certificates.clientKey, now.minus(Duration.ofHours(1)), notAfter,
                "DNS:metacontroller");
        Path renewed = Certificates.chain(dir.resolve("renewed-chain.crt"), leaf, soon, intermediate.cert(), unrelated);
        Instant leafExpiry = PemFiles.certificates(leaf).get(0).getNotAfter().toInstant();
        SimpleMeterRegistry renewedMeters = new SimpleMeterRegistry();
        try (TlsConnector tls = TlsConnector.create(new Server(), new HttpConfiguration(),
                new ServerConfig.Tls(renewed, certificates.serverKey, null), renewedMeters)) {
            assertEquals(List.of(), warnings(), "the renewed intermediate outlives the certificate served, and it has 30 days");
            double seconds = renewedMeters.get("metahook.tls.certificate.expiry").gauge().value();
            long left = Duration.between(Instant.now(), leafExpiry).toSeconds();
            assertTrue(seconds <= left + 1 && seconds >= left - 60, left + " ~ " + seconds);
        }
    }

    @Test
    void theWarningDaysAreASettingOfTheirOwn() {
        assertEquals(7, ServerConfig.fromEnvironment(java.util.Map.of()).tls().expiryWarningDays());
        assertEquals(30, ServerConfig.fromEnvironment(java.util.Map.of("TLS_EXPIRY_WARNING_DAYS", "30")).tls().expiryWarningDays());
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> ServerConfig.fromEnvironment(java.util.Map.of("TLS_EXPIRY_WARNING_DAYS", "-1")));
        assertEquals("TLS_EXPIRY_WARNING_DAYS must be between 0 and 3650, got -1", error.getMessage());
    }

    private List<String> warnings() {
        return log.list.stream().filter(e -> e.getLevel() == Level.WARN).map(ILoggingEvent::getFormattedMessage).toList();
    }

    /** The certificates the hook port sends in a handshake, to a client that trusts the test CA. */
    private static List<java.security.cert.Certificate> served(HookServer server) throws Exception {
        SSLContext client = SSLContext.getInstance("TLS");
        client.init(null, Certificates.trusting(certificates.caCert), null);
        try (SSLSocket socket = (SSLSocket) client.getSocketFactory().createSocket("127.0.0.1", server.port())) {
            socket.startHandshake();
            return List.of(socket.getSession().getPeerCertificates());
        }
    }

    private static double refusals(HookServer server) {
        return server.meterRegistry().get("metahook.tls.renewals.refused").counter().count();
    }

    private static String scrape(HookServer server) throws Exception {
        HttpResponse<String> metrics = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + server.managementPort() + "/metrics")).build(), HttpResponse.BodyHandlers.ofString());
        return metrics.body();
    }

    /** Starting with these files fails with exactly this one line. */
    private static void assertRefused(ServerConfig.Tls tls, String message) {
        ServerConfig config = ServerConfig.defaults().withTls(tls);
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> TestServer.start(TestServer.widgets(), config));
        assertEquals(message, error.getMessage());
    }
}
