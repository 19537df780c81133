package dev.metahook.internal.server;

import dev.metahook.internal.credentials.CertificateChain;
import dev.metahook.internal.credentials.CertificateChecks;
import dev.metahook.internal.credentials.CredentialFiles;
import dev.metahook.internal.credentials.ForwardingTrust;
import dev.metahook.internal.credentials.UnusableCredential;
import dev.metahook.internal.credentials.ValidAuthorities;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.net.Socket;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedKeyManager;
import javax.net.ssl.X509ExtendedTrustManager;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An HTTPS connector from PEM files, as Kubernetes TLS Secrets hold them: TLS 1.2 or newer, HTTP/1.1,
 * and, with a client CA bundle, a client certificate required from every caller (each CA of the bundle trusted while
 * within its validity, as a Go server trusts it: {@link ValidAuthorities}). The files are
 * looked at again every {@link #RECHECK_SECONDS} seconds and a new certificate and key (or CA bundle)
 * is served from the next handshake on, as cert-manager renews them in place; files that are broken,
 * half-written, do not match, are out of their validity or are gone leave the pair in service as it is,
 * say so in the log and count it. A chain a client cannot verify for a certificate out of its validity
 * ({@link CertificateChain}: the certificate's own, or a CA's it needs), or a key not its own, stops the start.
 * The chain's expiry (its first certificate to expire that a client verifies) is a gauge, and a warning when
 * it is near. The files are read with the JDK alone ({@link PemFiles}).
 */
final class TlsConnector implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TlsConnector.class);
    static final long RECHECK_SECONDS = 10;
    private static final String CERT = "TLS_CERT_FILE";
    private static final String KEY = "TLS_KEY_FILE";
    private static final String CLIENT_CA = "TLS_CLIENT_CA_FILE";

    private final ServerConfig.Tls tls;
    private final SwappableKeys keys;
    private final SwappableTrust trust;
    private final ServerConnector connector;
    private final ScheduledExecutorService checker = Executors.newSingleThreadScheduledExecutor(work -> {
        Thread thread = new Thread(work, "metahook-tls-reload");
        thread.setDaemon(true);
        return thread;
    });
    private final Counter refusedRenewals;
    private List<byte[]> served;
    private volatile CertificateChain.Link expiry;
    private String problem;

    private TlsConnector(Server server, HttpConfiguration http, ServerConfig.Tls tls, MeterRegistry meters) {
        this.tls = tls;
        List<byte[]> files;
        Material material;
        try {
            files = read(tls);
            material = material(tls, files, Instant.now());
        } catch (UnusableCredential e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        } catch (IOException | GeneralSecurityException | RuntimeException e) {
            throw new IllegalArgumentException("TLS_CERT_FILE, TLS_KEY_FILE or TLS_CLIENT_CA_FILE cannot be used: " + e.getMessage(), e);
        }
        this.served = files;
        this.expiry = material.expiry();
        this.keys = new SwappableKeys(material.keys());
        this.trust = material.trust() == null ? null : new SwappableTrust(material.trust());
        this.refusedRenewals = Counter.builder("metahook.tls.renewals.refused")
                .description("Changed TLS files not taken up (a certificate of the chain expired or not yet valid, a key not the certificate's,"
                        + " unreadable): the last good pair stays")
                .register(meters);
        Gauge.builder("metahook.tls.certificate.expiry", this, TlsConnector::secondsLeft)
                .description("Seconds until the served TLS certificate chain expires: the notAfter of its first certificate to expire that a"
                        + " client verifies").baseUnit("seconds").register(meters);
        SslContextFactory.Server factory = new SslContextFactory.Server();
        factory.setSslContext(sslContext(keys, trust));
        factory.setIncludeProtocols("TLSv1.3", "TLSv1.2");
        factory.setNeedClientAuth(tls.clientCaFile() != null);
        HttpConfiguration https = new HttpConfiguration(http);
        SecureRequestCustomizer secure = new SecureRequestCustomizer();
        secure.setSniHostCheck(false);
        https.addCustomizer(secure);
        this.connector = new ServerConnector(server, 0, -1, new SslConnectionFactory(factory, "http/1.1"), new HttpConnectionFactory(https));
    }

    /**
     * The connector, with the files checked for renewal from now on until {@link #close()}, and the served
     * certificate's expiry looked at now and once a day; its meters go to {@code meters}.
     */
    static TlsConnector create(Server server, HttpConfiguration http, ServerConfig.Tls tls, MeterRegistry meters) {
        TlsConnector created = new TlsConnector(server, http, tls, meters);
        created.warnIfExpiring(Instant.now());
        created.checker.scheduleWithFixedDelay(created::reloadIfChanged, RECHECK_SECONDS, RECHECK_SECONDS, TimeUnit.SECONDS);
        created.checker.scheduleAtFixedRate(() -> created.warnIfExpiring(Instant.now()), 1, 1, TimeUnit.DAYS);
        return created;
    }

    /** With meters no one scrapes. */
    static TlsConnector create(Server server, HttpConfiguration http, ServerConfig.Tls tls) {
        return create(server, http, tls, new SimpleMeterRegistry());
    }

    ServerConnector connector() {
        return connector;
    }

    /**
     * Looks at the files now (the checker does every {@link #RECHECK_SECONDS} s) and serves what they
     * hold when it changed and can be used; true when a new pair (or CA bundle) is served from now on.
     * Files that cannot be used leave the last good pair in service, counted and said once per problem.
     */
    synchronized boolean reloadIfChanged() {
        List<byte[]> files;
        Material material;
        Instant now = Instant.now();
        try {
            files = read(tls);
            if (same(files, served)) {
                return false;
            }
            material = material(tls, files, now);
        } catch (UnusableCredential | IOException | GeneralSecurityException | RuntimeException e) {
            String why = e instanceof UnusableCredential ? e.getMessage() : e.getClass().getSimpleName() + ": " + e.getMessage();
            if (!why.equals(problem)) {
                refusedRenewals.increment();
                LOG.warn("{}: a renewal refused, still serving the certificate loaded before (valid until {})", why,
                        CertificateChecks.date(expiry.notAfter()));
            }
            problem = why;
            return false;
        }
        keys.delegate = material.keys();
        if (trust != null) {
            trust.delegate = material.trust();
        }
        served = files;
        expiry = material.expiry();
        problem = null;
        LOG.info("TLS certificate reloaded from {}: serving {} (valid until {})", tls.certFile(),
                material.leaf().getSubjectX500Principal().getName(), CertificateChecks.date(expiry.notAfter()));
        warnIfExpiring(now);
        return true;
    }

    /**
     * A WARN when the served chain expires within {@code TLS_EXPIRY_WARNING_DAYS} of {@code now}, or has expired: the
     * certificate served, or the CA of its chain that expires before it.
     */
    void warnIfExpiring(Instant now) {
        CertificateChain.Link first = expiry;
        Instant notAfter = first.notAfter();
        if (tls.expiryWarningDays() == 0 && now.isBefore(notAfter)) {
            return;
        }
        String what = first.position() == 1 ? "the certificate served" : first + " of the chain served";
        if (!now.isBefore(notAfter)) {
            LOG.warn("TLS_CERT_FILE {}: {} expired on {}: every handshake fails until it is renewed",
                    tls.certFile(), what, CertificateChecks.date(notAfter));
        } else if (now.plus(Duration.ofDays(tls.expiryWarningDays())).isAfter(notAfter)) {
            LOG.warn("TLS_CERT_FILE {}: {} expires on {}, within TLS_EXPIRY_WARNING_DAYS ({} days): renew it before then",
                    tls.certFile(), what, CertificateChecks.date(notAfter), tls.expiryWarningDays());
        }
    }

    private double secondsLeft() {
        return (expiry.notAfter().toEpochMilli() - System.currentTimeMillis()) / 1000.0;
    }

    @Override
    public void close() {
        checker.shutdownNow();
    }

    /** What the files hold, parsed and checked: the key must be the certificate's; the chain's certificate that expires first. */
    private record Material(X509ExtendedKeyManager keys, X509ExtendedTrustManager trust, X509Certificate leaf, CertificateChain.Link expiry) {
    }

    /**
     * What the files hold, as {@link #read} read them (the bytes the change check compares): the certificate
     * chain, its key and the client CA bundle if there is one. The chain must have a way up through certificates
     * valid at {@code now}, and the key must be its certificate's.
     */
    private static Material material(ServerConfig.Tls tls, List<byte[]> files, Instant now)
            throws GeneralSecurityException, IOException, UnusableCredential {
        List<X509Certificate> chain = parsed(CERT, tls.certFile(), () -> PemFiles.certificates(tls.certFile(), files.get(0)));
        PrivateKey key = parsed(KEY, tls.keyFile(), () -> PemFiles.privateKey(tls.keyFile(), files.get(1)));
        CertificateChain.Link expiry = CertificateChecks.checkPair(CERT, tls.certFile(), chain, KEY, tls.keyFile(), key, now);
        char[] password = "in memory only".toCharArray();
        // JKS, not PKCS12: PKCS12 refuses a chain whose CAs are not in issuer order, or an extra one, which clients take
        KeyStore identity = KeyStore.getInstance("JKS");
        identity.load(null, null);
        identity.setKeyEntry("tls", key, password, chain.toArray(X509Certificate[]::new));
        KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(identity, password);
        X509ExtendedTrustManager trust = null;
        if (tls.clientCaFile() != null) {
            List<X509Certificate> bundle = parsed(CLIENT_CA, tls.clientCaFile(), () -> PemFiles.certificates(tls.clientCaFile(), files.get(2)));
            // each CA trusted while within its validity, as a Go server (a hook of any other language) trusts it
            trust = new ValidAuthorities(bundle);
        }
        return new Material((X509ExtendedKeyManager) keys.getKeyManagers()[0], trust, chain.get(0), expiry);
    }

    /** What a PEM file holds, or why it cannot be read as that, with its setting named. */
    private static <T> T parsed(String setting, Path file, Pem<T> read) throws UnusableCredential {
        try {
            return read.read();
        } catch (GeneralSecurityException e) {
            throw new UnusableCredential(setting, file, e);
        }
    }

    private interface Pem<T> {
        T read() throws GeneralSecurityException;
    }

    private static List<byte[]> read(ServerConfig.Tls tls) throws UnusableCredential {
        List<byte[]> files = new ArrayList<>();
        files.add(CredentialFiles.read(CERT, tls.certFile()));
        files.add(CredentialFiles.read(KEY, tls.keyFile()));
        if (tls.clientCaFile() != null) {
            files.add(CredentialFiles.read(CLIENT_CA, tls.clientCaFile()));
        }
        return files;
    }

    private static boolean same(List<byte[]> a, List<byte[]> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (!Arrays.equals(a.get(i), b.get(i))) {
                return false;
            }
        }
        return true;
    }

    private static SSLContext sslContext(X509ExtendedKeyManager keys, X509ExtendedTrustManager trust) {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(new X509ExtendedKeyManager[] {keys}, trust == null ? null : new TrustManager[] {trust}, null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every Java runtime has TLS", e);
        }
    }

    /** The key manager in service, swapped for a renewed one: handshakes from then on take the new pair. */
    private static final class SwappableKeys extends X509ExtendedKeyManager {
        volatile X509ExtendedKeyManager delegate;

        SwappableKeys(X509ExtendedKeyManager delegate) {
            this.delegate = delegate;
        }

        @Override
        public String[] getClientAliases(String keyType, Principal[] issuers) {
            return delegate.getClientAliases(keyType, issuers);
        }

        @Override
        public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
            return delegate.chooseClientAlias(keyType, issuers, socket);
        }

        @Override
        public String chooseEngineClientAlias(String[] keyType, Principal[] issuers, SSLEngine engine) {
            return delegate.chooseEngineClientAlias(keyType, issuers, engine);
        }

        @Override
        public String[] getServerAliases(String keyType, Principal[] issuers) {
            return delegate.getServerAliases(keyType, issuers);
        }

        @Override
        public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
            return delegate.chooseServerAlias(keyType, issuers, socket);
        }

        @Override
        public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
            return delegate.chooseEngineServerAlias(keyType, issuers, engine);
        }

        @Override
        public X509Certificate[] getCertificateChain(String alias) {
            return delegate.getCertificateChain(alias);
        }

        @Override
        public PrivateKey getPrivateKey(String alias) {
            return delegate.getPrivateKey(alias);
        }
    }

    /** The client CA bundle in service, swapped for a changed one: handshakes from then on are checked against it. */
    private static final class SwappableTrust extends ForwardingTrust {
        volatile X509ExtendedTrustManager delegate;

        SwappableTrust(X509ExtendedTrustManager delegate) {
            this.delegate = delegate;
        }

        @Override
        protected X509ExtendedTrustManager target() {
            return delegate;
        }
    }
}
