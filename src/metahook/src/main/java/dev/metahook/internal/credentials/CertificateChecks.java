package dev.metahook.internal.credentials;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;

/**
 * What can be wrong with a certificate and its key, checked before they are used and said in the words of
 * this class: {@code expired on DATE}, {@code not valid before DATE} (for a CA of the chain, {@code certificate 2
 * (CN=NAME) expired on DATE}), {@value #NOT_ITS_KEY}, {@code issued for NAMES, not HOST}. Dates are UTC instants to
 * the second ({@code 2026-01-02T00:00:00Z}).
 */
public final class CertificateChecks {
    public static final String NOT_ITS_KEY = "not the key of this certificate";
    private static final int DNS_NAME = 2;
    private static final int IP_ADDRESS = 7;

    private CertificateChecks() {
    }

    /** Why {@code certificate} is not valid at {@code now} ({@code expired on DATE}, {@code not valid before DATE}), or null when it is. */
    static String validity(X509Certificate certificate, Instant now) {
        Instant notAfter = certificate.getNotAfter().toInstant();
        Instant notBefore = certificate.getNotBefore().toInstant();
        if (now.isAfter(notAfter)) {
            return "expired on " + date(notAfter);
        }
        if (now.isBefore(notBefore)) {
            return "not valid before " + date(notBefore);
        }
        return null;
    }

    /**
     * Refuses a certificate chain (of {@code certFile}, its own certificate first) with no way up through certificates
     * valid at {@code now} ({@link CertificateChain}), or a key (of {@code keyFile}) that is not its first certificate's
     * key: the settings name the files as a user gave them. The certificate whose expiry ends the chain's validity.
     */
    public static CertificateChain.Link checkPair(String certSetting, Path certFile, List<X509Certificate> chain, String keySetting,
                                                  Path keyFile, PrivateKey key, Instant now) throws UnusableCredential, GeneralSecurityException {
        CertificateChain.Link expiry;
        try {
            expiry = CertificateChain.expiry(chain, now);
        } catch (CertificateChain.OutOfValidity e) {
            throw new UnusableCredential(certSetting, certFile, e.getMessage());
        }
        if (!isKeyOf(key, chain.get(0))) {
            throw new UnusableCredential(keySetting, keyFile, NOT_ITS_KEY + " (" + certSetting + " " + certFile + ")");
        }
        return expiry;
    }

    /** An instant as the words above write it: UTC, to the second. */
    public static String date(Instant instant) {
        return instant.truncatedTo(ChronoUnit.SECONDS).toString();
    }

    /** Whether the private key signs what the certificate's public key verifies (true for an algorithm this cannot test). */
    private static boolean isKeyOf(PrivateKey key, X509Certificate certificate) throws GeneralSecurityException {
        PublicKey certified = certificate.getPublicKey();
        if (!key.getAlgorithm().equals(certified.getAlgorithm())) {
            return false;
        }
        String algorithm = switch (key.getAlgorithm()) {
            case "RSA" -> "SHA256withRSA";
            case "EC" -> "SHA256withECDSA";
            case "Ed25519", "Ed448", "EdDSA" -> key.getAlgorithm();
            default -> null;
        };
        if (algorithm == null) {
            return true;
        }
        byte[] probe = "metahook: does this key go with this certificate".getBytes(StandardCharsets.UTF_8);
        Signature signer = Signature.getInstance(algorithm);
        signer.initSign(key);
        signer.update(probe);
        byte[] signature = signer.sign();
        Signature verifier = Signature.getInstance(algorithm);
        verifier.initVerify(certified);
        verifier.update(probe);
        return verifier.verify(signature);
    }

    /** {@code issued for NAMES, not HOST}: the names a client checks a host against, as the certificate gives them. */
    static String issuedFor(X509Certificate certificate, String host) {
        return "issued for " + String.join(", ", names(certificate)) + ", not " + host;
    }

    /** The certificate's DNS names and IP addresses, or its subject's common name when it has none (as old certificates do). */
    static List<String> names(X509Certificate certificate) {
        List<String> names = new ArrayList<>();
        try {
            Collection<List<?>> alternatives = certificate.getSubjectAlternativeNames();
            if (alternatives != null) {
                for (List<?> name : alternatives) {
                    int type = (Integer) name.get(0);
                    if (type == DNS_NAME || type == IP_ADDRESS) {
                        names.add(String.valueOf(name.get(1)));
                    }
                }
            }
        } catch (CertificateParsingException e) {
            names.add("(subject alternative names that cannot be read)");
        }
        if (names.isEmpty()) {
            names.add(commonName(certificate));
        }
        return names;
    }

    private static String commonName(X509Certificate certificate) {
        String subject = certificate.getSubjectX500Principal().getName();
        try {
            for (Rdn rdn : new LdapName(subject).getRdns()) {
                if (rdn.getType().equalsIgnoreCase("CN")) {
                    return String.valueOf(rdn.getValue());
                }
            }
        } catch (InvalidNameException e) {
            return subject;
        }
        return subject.isEmpty() ? "no name" : subject;
    }
}
