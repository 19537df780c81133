package dev.metahook.internal.credentials;

import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A certificate chain as a TLS peer sends it, looked at as Go's {@code crypto/tls} and {@code crypto/x509} verify it
 * (Metacontroller a hook's, a Go hook a client's): the first certificate is the peer's own and must be valid; the others
 * are a pool, in any order, that the way up to the client's root is built from. Each certificate's issuer is looked
 * for in the pool by name, by being a CA, and by its signature; one out of its validity is passed over for another
 * issuer that can take its place. The way up ends at a certificate the pool holds no issuer of (the client's root
 * signed it) or at a root the pool includes, which a client never takes from a peer: it verifies against its own
 * copy. So a certificate no way up goes through (an extra one, a CA rotated out) is not looked at, and neither is an
 * included root; a CA the way up needs is, because a client that trusts the root above it cannot do without it.
 */
public final class CertificateChain {
    private static final int KEY_CERT_SIGN = 5;

    private final List<Link> links;
    private final Instant now;
    private OutOfValidity refused;

    private CertificateChain(List<X509Certificate> certificates, Instant now) {
        List<Link> numbered = new ArrayList<>();
        for (int i = 0; i < certificates.size(); i++) {
            numbered.add(new Link(i + 1, certificates.get(i)));
        }
        this.links = List.copyOf(numbered);
        this.now = now;
    }

    /** A certificate of the chain and its place in the file, from 1 (the peer's own). */
    public record Link(int position, X509Certificate certificate) {
        public Instant notAfter() {
            return certificate.getNotAfter().toInstant();
        }

        /** {@code certificate 2 (CN=metahook intermediate CA)}. */
        @Override
        public String toString() {
            String subject = certificate.getSubjectX500Principal().getName();
            return "certificate " + position + " (" + (subject.isEmpty() ? "no subject" : subject) + ")";
        }
    }

    /** A chain with no way up through certificates valid now: the first certificate found out of its validity, and why. */
    public static final class OutOfValidity extends Exception {
        private static final long serialVersionUID = 1L;

        private final transient Link link;

        OutOfValidity(Link link, String why) {
            super(link.position() == 1 ? why : link + " " + why, null, false, false);
            this.link = link;
        }

        /** The certificate out of its validity. */
        public Link link() {
            return link;
        }
    }

    /**
     * The certificate of {@code chain} whose expiry ends the chain's validity: of the ways up through certificates valid at
     * {@code now}, the one that stays valid longest, by its certificate that expires first (the peer's own on a tie).
     *
     * @throws OutOfValidity when every way up goes through a certificate out of its validity (the peer's own first)
     */
    public static Link expiry(List<X509Certificate> chain, Instant now) throws OutOfValidity {
        CertificateChain search = new CertificateChain(chain, now);
        Link own = search.links.get(0);
        Link expiry = search.wayUp(own, List.of(own));
        if (expiry == null) {
            throw search.refused;
        }
        return expiry;
    }

    /** From {@code link}, the last of {@code path}: the certificate that expires first on the way up valid longest, or null. */
    private Link wayUp(Link link, List<Link> path) {
        String invalid = CertificateChecks.validity(link.certificate(), now);
        if (invalid != null) {
            if (refused == null) {
                refused = new OutOfValidity(link, invalid);
            }
            return null;
        }
        List<Link> issuers = issuers(link, path);
        if (issuers.isEmpty()) {
            return link;
        }
        Link best = null;
        for (Link issuer : issuers) {
            Link above = isRoot(issuer) ? link : wayUp(issuer, append(path, issuer));
            if (above != null) {
                Link first = above.notAfter().isBefore(link.notAfter()) ? above : link;
                if (best == null || first.notAfter().isAfter(best.notAfter())) {
                    best = first;
                }
            }
        }
        return best;
    }

    /** The certificates of the pool that may have issued {@code link}'s, as Go picks them; none already on the path. */
    private List<Link> issuers(Link link, List<Link> path) {
        List<Link> issuers = new ArrayList<>();
        for (Link candidate : links.subList(1, links.size())) {
            if (!onPath(candidate, path) && issued(candidate.certificate(), link.certificate())) {
                issuers.add(candidate);
            }
        }
        return issuers;
    }

    /** Whether {@code issuer}, a CA allowed to sign certificates, signed {@code certificate}. */
    private static boolean issued(X509Certificate issuer, X509Certificate certificate) {
        boolean[] usage = issuer.getKeyUsage();
        if (issuer.getBasicConstraints() < 0 || usage != null && !usage[KEY_CERT_SIGN]
                || !Arrays.equals(certificate.getIssuerX500Principal().getEncoded(), issuer.getSubjectX500Principal().getEncoded())) {
            return false;
        }
        try {
            certificate.verify(issuer.getPublicKey());
            return true;
        } catch (GeneralSecurityException e) {
            return false;
        }
    }

    /** A root: a CA that issued its own certificate. */
    private static boolean isRoot(Link link) {
        return issued(link.certificate(), link.certificate());
    }

    /** Whether the path holds {@code candidate} or a certificate of the same subject and key (as a cross-signed CA is). */
    private static boolean onPath(Link candidate, List<Link> path) {
        for (Link link : path) {
            if (link.certificate().getSubjectX500Principal().equals(candidate.certificate().getSubjectX500Principal())
                    && link.certificate().getPublicKey().equals(candidate.certificate().getPublicKey())) {
                return true;
            }
        }
        return false;
    }

    private static List<Link> append(List<Link> path, Link link) {
        List<Link> longer = new ArrayList<>(path);
        longer.add(link);
        return longer;
    }
}
