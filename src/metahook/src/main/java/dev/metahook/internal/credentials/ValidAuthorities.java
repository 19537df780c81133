package dev.metahook.internal.credentials;

import java.io.IOException;
import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * Trust in the CAs of a bundle that are within their validity at the time of each check, as Go's {@code crypto/x509}
 * verifies a chain: it checks the dates of every certificate of the chain it builds, the root included, where the
 * JDK's PKIX trusts a root whatever its dates. A bundle may hold an old copy of a CA beside its renewal, or a CA that
 * has expired beside others: the ones valid are used, and a peer whose only issuer in the bundle is out of its
 * validity is refused.
 */
public final class ValidAuthorities extends ForwardingTrust {
    private final List<X509Certificate> authorities;
    private final Supplier<Instant> clock;
    private volatile Trusted current;

    /** The JDK's trust in the CAs valid at a time, or in none. */
    private record Trusted(List<X509Certificate> valid, X509ExtendedTrustManager jdk) {
    }

    /** Trust in {@code authorities}, each while it is within its validity. */
    public ValidAuthorities(List<X509Certificate> authorities) throws GeneralSecurityException {
        this(authorities, Instant::now);
    }

    /** Trust in {@code authorities}, each while it is within its validity by {@code clock}. */
    ValidAuthorities(List<X509Certificate> authorities, Supplier<Instant> clock) throws GeneralSecurityException {
        this.authorities = List.copyOf(authorities);
        this.clock = clock;
        List<X509Certificate> valid = validAt(clock.get());
        this.current = new Trusted(valid, jdk(valid));
    }

    @Override
    protected X509ExtendedTrustManager target() {
        List<X509Certificate> valid = validAt(clock.get());
        Trusted trusted = current;
        if (!trusted.valid().equals(valid)) {
            try {
                trusted = new Trusted(valid, jdk(valid));
            } catch (GeneralSecurityException e) {
                // the same certificates made a trust manager when this was made: an in-memory store does not fail later
                throw new IllegalStateException("a trust manager for the valid CAs cannot be made", e);
            }
            current = trusted;
        }
        return trusted.jdk();
    }

    /**
     * The CA of the bundle, out of its validity now, that issued a certificate of {@code chain}, and why it is out
     * ({@code CN=metahook CA, expired on DATE}): what a peer the valid CAs refused was signed by, if that is the cause.
     */
    public Optional<String> outOfValidityIssuer(X509Certificate[] chain) {
        Instant now = clock.get();
        for (X509Certificate authority : authorities) {
            String invalid = CertificateChecks.validity(authority, now);
            if (invalid != null && issuedAny(authority, chain)) {
                return Optional.of(authority.getSubjectX500Principal().getName() + ", " + invalid);
            }
        }
        return Optional.empty();
    }

    private static boolean issuedAny(X509Certificate authority, X509Certificate[] chain) {
        for (X509Certificate certificate : chain) {
            if (certificate.getIssuerX500Principal().equals(authority.getSubjectX500Principal())) {
                try {
                    certificate.verify(authority.getPublicKey());
                    return true;
                } catch (GeneralSecurityException e) {
                    // another CA of the same name
                }
            }
        }
        return false;
    }

    private List<X509Certificate> validAt(Instant now) {
        return authorities.stream().filter(authority -> CertificateChecks.validity(authority, now) == null).toList();
    }

    /** The JDK's trust in {@code valid}; with none valid, a trust that refuses every peer. */
    private static X509ExtendedTrustManager jdk(List<X509Certificate> valid) throws GeneralSecurityException {
        return valid.isEmpty() ? new NoneValid() : jdkTrust(valid);
    }

    /** The JDK's own trust in {@code authorities} (at least one), whatever their dates. */
    static X509ExtendedTrustManager jdkTrust(List<X509Certificate> authorities) throws GeneralSecurityException {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try {
            store.load(null, null);
        } catch (IOException e) {
            throw new GeneralSecurityException("an empty key store cannot be made", e);
        }
        for (int i = 0; i < authorities.size(); i++) {
            store.setCertificateEntry("ca-" + i, authorities.get(i));
        }
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(store);
        return (X509ExtendedTrustManager) factory.getTrustManagers()[0];
    }

    /** A bundle with no CA within its validity: every peer is refused, and no issuer is accepted. */
    private static final class NoneValid extends X509ExtendedTrustManager {
        private static CertificateException refused() {
            return new CertificateException("no CA of the bundle is within its validity");
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            throw refused();
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
            throw refused();
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) throws CertificateException {
            throw refused();
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            throw refused();
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
            throw refused();
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) throws CertificateException {
            throw refused();
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
