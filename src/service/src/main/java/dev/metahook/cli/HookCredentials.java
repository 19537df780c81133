package dev.metahook.cli;

import dev.metahook.internal.credentials.CertificateChecks;
import dev.metahook.internal.credentials.CredentialFiles;
import dev.metahook.internal.credentials.PeerTrust;
import dev.metahook.internal.credentials.UnusableCredential;
import dev.metahook.internal.server.PemFiles;
import dev.metahook.internal.sim.HttpHook;
import java.io.IOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;

/**
 * {@code --token-file}, {@code --cacert}, {@code --cert} and {@code --key}: what {@code check} and {@code render} call a
 * hook service with, as Metacontroller calls it with a CompositeController's {@code endpointConfigs} (v4.16 and newer):
 * a bearer token, the CA its certificate must chain to, and a client certificate for mutual TLS. PEM files as a
 * {@code kubernetes.io/tls} Secret holds them, read with the JDK alone (as the service reads its own).
 */
final class HookCredentials {
    static final String OPTIONS = " [--token-file <file>] [--cacert <CA pem>] [--cert <client certificate pem> --key <its key pem>]";

    private HookCredentials() {
    }

    /** The credentials the options name; none without any. Only for a hook at {@code --url}. */
    static HttpHook.Credentials of(Arguments arguments, String usage) {
        String tokenFile = arguments.optional("token-file");
        String caFile = arguments.optional("cacert");
        String certFile = arguments.optional("cert");
        String keyFile = arguments.optional("key");
        if (tokenFile == null && caFile == null && certFile == null && keyFile == null) {
            return HttpHook.Credentials.NONE;
        }
        if (arguments.optional("url") == null) {
            throw new UsageException("--token-file, --cacert, --cert and --key are for a hook at --url; without it the hook is called in-process\n"
                    + usage);
        }
        if ((certFile == null) != (keyFile == null)) {
            throw new UsageException((certFile == null ? "--key needs --cert" : "--cert needs --key") + ": a client certificate and its key go together\n"
                    + usage);
        }
        String token = tokenFile == null ? null : token(Path.of(tokenFile));
        SSLContext tls = caFile == null && certFile == null ? null
                : tls(caFile == null ? null : Path.of(caFile), certFile == null ? null : Path.of(certFile), keyFile == null ? null : Path.of(keyFile));
        return new HttpHook.Credentials(token, tls);
    }

    /** The first line of the file, without the spaces around it or a byte order mark, as a mounted Secret holds a token. */
    private static String token(Path file) {
        try {
            return CredentialFiles.lines("--token-file", file).get(0);
        } catch (UnusableCredential e) {
            throw new UsageException(e.getMessage());
        }
    }

    /**
     * Trust the CAs of {@code caFile} (else the Java runtime's), present the client certificate when given; a
     * client certificate chain a server cannot verify for a certificate out of its validity, or a key that is not its
     * key, is refused before any call.
     */
    private static SSLContext tls(Path caFile, Path certFile, Path keyFile) {
        try {
            PeerTrust trust = caFile == null ? new PeerTrust("the Java runtime's trusted CAs (give the hook's CA with --cacert)", null)
                    : new PeerTrust("--cacert " + caFile, certificates("--cacert", caFile));
            KeyManagerFactory keys = null;
            if (certFile != null) {
                List<X509Certificate> chain = certificates("--cert", certFile);
                PrivateKey key = privateKey(keyFile);
                CertificateChecks.checkPair("--cert", certFile, chain, "--key", keyFile, key, Instant.now());
                // JKS, not PKCS12: PKCS12 refuses a chain whose CAs are not in issuer order, or an extra one, which servers take
                KeyStore store = KeyStore.getInstance("JKS");
                store.load(null, null);
                char[] password = "in memory only".toCharArray();
                store.setKeyEntry("client", key, password, chain.toArray(new X509Certificate[0]));
                keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                keys.init(store, password);
            }
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keys == null ? null : keys.getKeyManagers(), new TrustManager[] {trust}, null);
            return context;
        } catch (UnusableCredential e) {
            throw new UsageException(e.getMessage());
        } catch (IOException | GeneralSecurityException e) {
            throw new UsageException("the TLS context for the hook cannot be made: " + e.getMessage());
        }
    }

    private static List<X509Certificate> certificates(String option, Path file) throws UnusableCredential {
        byte[] content = CredentialFiles.read(option, file);
        try {
            return PemFiles.certificates(file, content);
        } catch (GeneralSecurityException e) {
            throw new UnusableCredential(option, file, e);
        }
    }

    private static PrivateKey privateKey(Path file) throws UnusableCredential {
        byte[] content = CredentialFiles.read("--key", file);
        try {
            return PemFiles.privateKey(file, content);
        } catch (GeneralSecurityException e) {
            throw new UnusableCredential("--key", file, e);
        }
    }
}
