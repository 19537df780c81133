package dev.metahook.internal.credentials;

import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * A client's trust in a server's certificate that says why it refused one: {@code expired on DATE}, {@code not
 * valid before DATE}, {@code certificate 2 (CN=NAME) expired on DATE}, {@code signed by a CA not in --cacert FILE},
 * {@code signed by a CA --cacert FILE holds only out of its validity (CN=NAME, expired on DATE)}, {@code issued for
 * NAMES, not HOST}. The checks are the JDK's (path building, then the host name, in a second pass so that either
 * failure is named), with the given CAs trusted only within their validity, as Go does ({@link ValidAuthorities}); only
 * the words are this class's. {@link #explain} reads a failed handshake back into those words.
 */
public final class PeerTrust extends ForwardingTrust {
    private static final Pattern ALERT = Pattern.compile("Received fatal alert: (\\w+)");

    private final X509ExtendedTrustManager jdk;
    private final String authorities;

    /**
     * @param authorities the CAs trusted, as {@code signed by a CA not in ...} names them: {@code --cacert /etc/ca.crt}
     * @param trusted     those CAs' certificates, or null for the Java runtime's own
     */
    public PeerTrust(String authorities, List<X509Certificate> trusted) throws GeneralSecurityException {
        this.authorities = authorities;
        if (trusted == null) {
            TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            factory.init((KeyStore) null);
            this.jdk = (X509ExtendedTrustManager) factory.getTrustManagers()[0];
        } else {
            this.jdk = new ValidAuthorities(trusted);
        }
    }

    /** A server's certificate this client refused, and why in words. */
    public static final class Refused extends CertificateException {
        private static final long serialVersionUID = 1L;

        Refused(String why, Throwable cause) {
            super(why, cause);
        }
    }

    /**
     * Why a handshake failed, in words: this class's when it refused the server's certificate, the other side's
     * refusal by its TLS alert, and otherwise the JDK's text behind a word of ours.
     */
    public static String explain(SSLException failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof Refused refused) {
                return "the hook's certificate is refused: " + refused.getMessage();
            }
        }
        String message = String.valueOf(failure.getMessage());
        Matcher alert = ALERT.matcher(message);
        if (alert.find()) {
            return switch (alert.group(1)) {
                case "bad_certificate", "certificate_unknown", "unknown_ca", "certificate_expired", "certificate_revoked",
                        "unsupported_certificate" -> "the hook refused the client certificate (TLS alert " + alert.group(1) + ")";
                case "certificate_required" -> "the hook requires a client certificate (TLS alert certificate_required)";
                case "protocol_version", "handshake_failure", "insufficient_security" ->
                        "no TLS version or cipher suite in common with the hook (TLS alert " + alert.group(1) + ")";
                default -> "the hook ended the handshake (TLS alert " + alert.group(1) + ")";
            };
        }
        if (message.contains("Unsupported or unrecognized SSL message")) {
            return "the hook does not speak TLS on this port (is it http://?)";
        }
        return "TLS failure (" + message + ")";
    }

    private void check(X509Certificate[] chain, String authType, String host, CheckHost hostCheck) throws CertificateException {
        String invalid = CertificateChecks.validity(chain[0], Instant.now());
        if (invalid != null) {
            throw new Refused(invalid, null);
        }
        try {
            jdk.checkServerTrusted(chain, authType);
        } catch (CertificateException e) {
            throw new Refused(untrusted(chain, e), e);
        }
        try {
            hostCheck.run();
        } catch (CertificateException e) {
            throw new Refused(CertificateChecks.issuedFor(chain[0], host), e);
        }
    }

    /**
     * Why the path from the certificate to a trusted CA failed: a CA of the chain out of its validity (named when the
     * chain's own order of issuers finds it), or else (no path found, or one whose signatures do not verify, as when two
     * CAs have the same name) a CA not trusted.
     */
    private String untrusted(X509Certificate[] chain, CertificateException e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof CertPathValidatorException invalid && (invalid.getReason() == CertPathValidatorException.BasicReason.EXPIRED
                    || invalid.getReason() == CertPathValidatorException.BasicReason.NOT_YET_VALID)) {
                try {
                    CertificateChain.expiry(List.of(chain), Instant.now());
                } catch (CertificateChain.OutOfValidity out) {
                    return out.getMessage();
                }
                return "a certificate of its chain is out of its validity (" + invalid.getMessage() + ")";
            }
        }
        if (jdk instanceof ValidAuthorities given) {
            Optional<String> issuer = given.outOfValidityIssuer(chain);
            if (issuer.isPresent()) {
                return "signed by a CA " + authorities + " holds only out of its validity (" + issuer.get() + ")";
            }
        }
        return "signed by a CA not in " + authorities;
    }

    private interface CheckHost {
        void run() throws CertificateException;
    }

    @Override
    protected X509ExtendedTrustManager target() {
        return jdk;
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
        String host = socket instanceof SSLSocket tls && tls.getHandshakeSession() != null ? tls.getHandshakeSession().getPeerHost() : null;
        check(chain, authType, host, () -> jdk.checkServerTrusted(chain, authType, socket));
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) throws CertificateException {
        check(chain, authType, engine == null ? null : engine.getPeerHost(), () -> jdk.checkServerTrusted(chain, authType, engine));
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        check(chain, authType, null, () -> { });
    }
}
