package dev.metahook.internal.credentials;

import static dev.metahook.internal.server.Certificates.EXPIRED_FROM;
import static dev.metahook.internal.server.Certificates.EXPIRED_ON;
import static dev.metahook.internal.server.Certificates.FUTURE_FROM;
import static dev.metahook.internal.server.Certificates.FUTURE_UNTIL;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.metahook.internal.server.Certificates;
import dev.metahook.internal.server.PemFiles;
import java.nio.file.Path;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A CA of a bundle is trusted while it is within its validity, as Go verifies a chain up to its root: the JDK's own
 * trust manager, given a root out of its validity, trusts it all the same. Real certificates made by openssl: the
 * test CA that signed the server's certificate, an old copy of it (same name and key, expired) and one not valid yet.
 */
class ValidAuthoritiesTest {
    @TempDir
    static Path dir;
    private static X509Certificate[] served;
    private static X509Certificate ca;
    private static X509Certificate expiredCopy;
    private static X509Certificate futureCopy;
    private static X509Certificate otherExpired;

    @BeforeAll
    static void createTheCertificates() throws Exception {
        Certificates certificates = new Certificates(dir);
        served = PemFiles.certificates(certificates.serverCert).toArray(X509Certificate[]::new);
        ca = only(certificates.caCert);
        expiredCopy = only(certificates.root("metahook test CA", certificates.ca().key(), EXPIRED_FROM, EXPIRED_ON).cert());
        futureCopy = only(certificates.root("metahook test CA", certificates.ca().key(), FUTURE_FROM, FUTURE_UNTIL).cert());
        otherExpired = only(certificates.root("metahook other CA", certificates.newKey(dir.resolve("other.key")), EXPIRED_FROM,
                EXPIRED_ON).cert());
    }

    private static X509Certificate only(Path file) throws Exception {
        return PemFiles.certificates(file).get(0);
    }

    @Test
    void aPeerUnderAValidCaIsTrusted() throws Exception {
        assertDoesNotThrow(() -> new ValidAuthorities(List.of(ca)).checkServerTrusted(served, "RSA"));
    }

    /** What the JDK does with the same bundle, so that the test shows the difference it makes. */
    @Test
    void theJdksTrustTakesAnExpiredRootThatValidAuthoritiesRefuses() throws Exception {
        assertDoesNotThrow(() -> ValidAuthorities.jdkTrust(List.of(expiredCopy)).checkServerTrusted(served, "RSA"));
        ValidAuthorities trust = new ValidAuthorities(List.of(expiredCopy));
        assertThrows(CertificateException.class, () -> trust.checkServerTrusted(served, "RSA"));
        assertThrows(CertificateException.class, () -> trust.checkClientTrusted(served, "RSA"));
        assertEquals(0, trust.getAcceptedIssuers().length);
    }

    @Test
    void aCaNotValidYetIsNotTrusted() throws Exception {
        ValidAuthorities trust = new ValidAuthorities(List.of(futureCopy));
        assertThrows(CertificateException.class, () -> trust.checkServerTrusted(served, "RSA"));
        assertEquals(Optional.of("CN=metahook test CA, not valid before 2099-01-01T00:00:00Z"), trust.outOfValidityIssuer(served));
    }

    @Test
    void anExpiredCopyBesideTheValidCaLeavesThePeerTrusted() throws Exception {
        ValidAuthorities trust = new ValidAuthorities(List.of(expiredCopy, otherExpired, ca));
        assertDoesNotThrow(() -> trust.checkServerTrusted(served, "RSA"));
        assertEquals(List.of(ca), List.of(trust.getAcceptedIssuers()));
    }

    @Test
    void theExpiredCaThatIssuedThePeerIsNamedWithItsDate() throws Exception {
        ValidAuthorities trust = new ValidAuthorities(List.of(otherExpired, expiredCopy));
        assertEquals(Optional.of("CN=metahook test CA, expired on 2025-01-02T00:00:00Z"), trust.outOfValidityIssuer(served));
        assertEquals(Optional.empty(), new ValidAuthorities(List.of(otherExpired)).outOfValidityIssuer(served));
    }

    /** The CAs are looked at again at each check: one that expires while the service runs stops being trusted. */
    @Test
    void aCaIsTrustedUntilItExpires() throws Exception {
        Instant[] now = {Instant.now()};
        ValidAuthorities trust = new ValidAuthorities(List.of(ca), () -> now[0]);
        assertDoesNotThrow(() -> trust.checkServerTrusted(served, "RSA"));
        now[0] = ca.getNotAfter().toInstant().plusSeconds(1);
        assertThrows(CertificateException.class, () -> trust.checkServerTrusted(served, "RSA"));
        assertEquals(0, trust.getAcceptedIssuers().length);
    }
}
