package dev.metahook.cli;

import dev.metahook.internal.server.PemFiles;
import dev.metahook.internal.sim.HttpHook;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

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

    /** The first line of the file, without the spaces around it, as a mounted Secret holds a token. */
    private static String token(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new UsageException("--token-file " + file + ": no such file");
        } catch (IOException e) {
            throw new UsageException("--token-file " + file + ": cannot be read: " + e.getMessage());
        }
        String token = text.lines().findFirst().orElse("").strip();
        if (token.isEmpty()) {
            throw new UsageException("--token-file " + file + ": holds no token (its first line is empty)");
        }
        return token;
    }

    /** Trust the CA of {@code caFile} (else the JDK's default trust), present the client certificate when given. */
    private static SSLContext tls(Path caFile, Path certFile, Path keyFile) {
        try {
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            if (caFile == null) {
                trust.init((KeyStore) null);
            } else {
                KeyStore cas = KeyStore.getInstance("PKCS12");
                cas.load(null, null);
                List<X509Certificate> bundle = read(caFile, "--cacert");
                for (int i = 0; i < bundle.size(); i++) {
                    cas.setCertificateEntry("ca-" + i, bundle.get(i));
                }
                trust.init(cas);
            }
            KeyManagerFactory keys = null;
            if (certFile != null) {
                List<X509Certificate> chain = read(certFile, "--cert");
                PrivateKey key;
                try {
                    key = PemFiles.privateKey(keyFile);
                } catch (NoSuchFileException e) {
                    throw new UsageException("--key " + keyFile + ": no such file");
                } catch (IOException | GeneralSecurityException e) {
                    throw new UsageException("--key " + keyFile + ": " + e.getMessage());
                }
                KeyStore store = KeyStore.getInstance("PKCS12");
                store.load(null, null);
                char[] password = new char[0];
                store.setKeyEntry("client", key, password, chain.toArray(new X509Certificate[0]));
                keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                keys.init(store, password);
            }
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keys == null ? null : keys.getKeyManagers(), trust.getTrustManagers(), null);
            return context;
        } catch (IOException | GeneralSecurityException e) {
            throw new UsageException("the TLS context for the hook cannot be made: " + e.getMessage());
        }
    }

    private static List<X509Certificate> read(Path file, String option) {
        try {
            return PemFiles.certificates(file);
        } catch (NoSuchFileException e) {
            throw new UsageException(option + " " + file + ": no such file");
        } catch (IOException | GeneralSecurityException e) {
            throw new UsageException(option + " " + file + ": " + e.getMessage());
        }
    }
}
