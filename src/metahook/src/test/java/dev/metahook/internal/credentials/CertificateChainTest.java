package dev.metahook.internal.credentials;

import static dev.metahook.internal.server.Certificates.EXPIRED_FROM;
import static dev.metahook.internal.server.Certificates.EXPIRED_ON;
import static dev.metahook.internal.server.Certificates.FUTURE_FROM;
import static dev.metahook.internal.server.Certificates.FUTURE_UNTIL;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.metahook.internal.server.Certificates;
import dev.metahook.internal.server.PemFiles;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A chain is looked at as a Go client verifies it: every certificate on the way from the peer's own up to the client's
 * root must be valid, in whatever order the file holds them; a certificate no way up needs is not looked at, nor is an
 * included root; and the chain expires with the first certificate on its longest-lived way up. Real certificates, made
 * by openssl: a root CA, intermediates of one key under one name (as a CA renewed with its key is) and of another key
 * under the same name (as a CA rotated to a new key is).
 */
class CertificateChainTest {
    private static final String INTERMEDIATE = "CN=metahook test intermediate";
    private static final Instant NOW = Instant.now().truncatedTo(ChronoUnit.SECONDS);

    @TempDir
    static Path dir;
    private static Certificates certificates;
    private static Certificates.Authority intermediateCa;
    private static Path leaf;
    private static Path intermediate;
    private static Path expiredTwin;
    private static Path futureTwin;
    private static Path rotated;
    private static Path root;

    @BeforeAll
    static void createTheCertificates() throws Exception {
        certificates = new Certificates(dir);
        Path key = certificates.newKey(dir.resolve("intermediate.key"));
        intermediateCa = certificates.intermediate(certificates.ca(), "metahook test intermediate", key,
                NOW.minus(Duration.ofDays(1)), NOW.plus(Duration.ofDays(20)));
        intermediate = intermediateCa.cert();
        expiredTwin = certificates.intermediate(certificates.ca(), "metahook test intermediate", key, EXPIRED_FROM, EXPIRED_ON).cert();
        futureTwin = certificates.intermediate(certificates.ca(), "metahook test intermediate", key, FUTURE_FROM, FUTURE_UNTIL).cert();
        rotated = certificates.intermediate(certificates.ca(), "metahook test intermediate", certificates.newKey(dir.resolve("rotated.key")),
                EXPIRED_FROM, EXPIRED_ON).cert();
        leaf = certificates.certificate(intermediateCa, dir.resolve("leaf.crt"), certificates.serverKey, NOW.minus(Duration.ofDays(1)),
                NOW.plus(Duration.ofDays(10)), "IP:127.0.0.1");
        root = certificates.caCert;
    }

    @Test
    void anIntermediateOutOfItsValidityIsNamedBySubjectAndDate() throws Exception {
        assertEquals("certificate 2 (" + INTERMEDIATE + ") expired on 2025-01-02T00:00:00Z", refusal(leaf, expiredTwin));
        assertEquals("certificate 3 (" + INTERMEDIATE + ") not valid before 2099-01-01T00:00:00Z", refusal(leaf, root, futureTwin));
    }

    @Test
    void theCertificatesOwnValidityIsSaidFirst() throws Exception {
        Path expiredLeaf = certificates.expired(dir.resolve("expired-leaf.crt"), certificates.serverKey, "IP:127.0.0.1");
        assertEquals("expired on 2025-01-02T00:00:00Z", refusal(expiredLeaf, expiredTwin));
    }

    /** Go takes the certificates after the first as a pool: their order, and a root among them, change nothing. */
    @Test
    void theCasMayComeInAnyOrderWithTheRootIncluded() throws Exception {
        assertEquals(1, expiry(leaf, intermediate).position());
        assertEquals(1, expiry(leaf, root, intermediate).position());
        assertEquals(1, expiry(leaf, intermediate, root).position());
    }

    /** An intermediate renewed with its key signs what the old one did: the expired one is passed over, as Go passes it over. */
    @Test
    void anIntermediateOutOfItsValidityIsPassedOverForOneThatTakesItsPlace() throws Exception {
        assertEquals(1, expiry(leaf, expiredTwin, intermediate).position());
        assertEquals(1, expiry(leaf, intermediate, futureTwin, expiredTwin).position());
    }

    /** A CA rotated to another key signs none of the chain (its signatures do not verify): it is not looked at. */
    @Test
    void aCertificateNoWayUpGoesThroughIsNotLookedAt() throws Exception {
        assertEquals(1, expiry(leaf, intermediate, rotated).position());
        Path unrelated = certificates.expired(dir.resolve("unrelated.crt"), certificates.clientKey, "DNS:metacontroller");
        assertEquals(1, expiry(leaf, unrelated, intermediate).position());
        assertEquals(1, expiry(leaf, rotated).position(), "the pool holds no issuer of the leaf: a client's roots decide, not its validity");
    }

    /** A client verifies against its own copy of a root, never one a peer sends: an included root out of its validity is not looked at. */
    @Test
    void anIncludedRootIsLeftToTheClientsOwnCopy() throws Exception {
        Path rootKey = certificates.newKey(dir.resolve("old-root.key"));
        Certificates.Authority oldRoot = certificates.root("metahook old root", rootKey, EXPIRED_FROM, EXPIRED_ON);
        Path chained = certificates.certificate(oldRoot, dir.resolve("under-old-root.crt"), certificates.serverKey,
                NOW.minus(Duration.ofDays(1)), NOW.plus(Duration.ofDays(10)), "IP:127.0.0.1");
        assertEquals(1, expiry(chained, oldRoot.cert()).position());
    }

    /** The chain expires with the first certificate to expire on its way up; an intermediate that expires sooner elsewhere counts for nothing. */
    @Test
    void theChainExpiresWithTheFirstCertificateToExpireOnItsWayUp() throws Exception {
        Path longLeaf = certificates.certificate(intermediateCa, dir.resolve("long-leaf.crt"), certificates.serverKey,
                NOW.minus(Duration.ofDays(1)), NOW.plus(Duration.ofDays(40)), "IP:127.0.0.1");
        CertificateChain.Link expiry = expiry(longLeaf, root, intermediate);
        assertEquals(3, expiry.position());
        assertEquals("certificate 3 (" + INTERMEDIATE + ")", expiry.toString());
        assertEquals(NOW.plus(Duration.ofDays(20)), expiry.notAfter());
        Path soon = certificates.intermediate(certificates.ca(), "metahook test intermediate", intermediateCa.key(),
                NOW.minus(Duration.ofDays(1)), NOW.plus(Duration.ofDays(2))).cert();
        assertEquals(NOW.plus(Duration.ofDays(20)), expiry(longLeaf, soon, intermediate).notAfter(), "the way up that lives longest");
        assertEquals(NOW.plus(Duration.ofDays(2)), expiry(longLeaf, soon).notAfter());
    }

    private static CertificateChain.Link expiry(Path... files) throws Exception {
        return CertificateChain.expiry(chain(files), Instant.now());
    }

    private static String refusal(Path... files) throws Exception {
        List<X509Certificate> chain = chain(files);
        return assertThrows(CertificateChain.OutOfValidity.class, () -> CertificateChain.expiry(chain, Instant.now())).getMessage();
    }

    private static List<X509Certificate> chain(Path... files) throws Exception {
        List<X509Certificate> chain = new ArrayList<>();
        for (Path file : files) {
            chain.addAll(PemFiles.certificates(file));
        }
        return chain;
    }
}
