package dev.metahook.internal.server;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;

/**
 * A throwaway CA, a server certificate for 127.0.0.1 and a client certificate, written as PEM files like
 * a TLS Secret's, by {@code openssl}: the keys in PKCS#1 ({@code RSA PRIVATE KEY}), as cert-manager writes
 * an RSA key by default. More certificates on demand: of given dates, from intermediate CAs, and chains of them.
 */
public final class Certificates {
    /** The dates of an expired certificate ({@link #expired}): a day in the past. */
    public static final Instant EXPIRED_FROM = Instant.parse("2025-01-01T00:00:00Z");
    public static final Instant EXPIRED_ON = Instant.parse("2025-01-02T00:00:00Z");
    /** The dates of a certificate not yet valid ({@link #notYetValid}): a month in the future. */
    public static final Instant FUTURE_FROM = Instant.parse("2099-01-01T00:00:00Z");
    public static final Instant FUTURE_UNTIL = Instant.parse("2099-02-01T00:00:00Z");
    private static final String CA_EXTENSIONS = "basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\n";

    public final Path caCert;
    public final Path serverCert;
    public final Path serverKey;
    public final Path clientCert;
    public final Path clientKey;
    private static final DateTimeFormatter ASN1_TIME = DateTimeFormatter.ofPattern("yyyyMMddHHmmss'Z'").withZone(ZoneOffset.UTC);
    private static final AtomicLong SERIAL = new AtomicLong(System.currentTimeMillis());
    private final Path dir;
    private final Path caKey;

    public Certificates(Path dir) throws Exception {
        this.dir = dir;
        caKey = rsaKey(dir.resolve("ca.key"));
        caCert = dir.resolve("ca.crt");
        openssl("req", "-x509", "-key", caKey.toString(), "-subj", "/CN=metahook test CA", "-days", "30",
                "-set_serial", String.valueOf(SERIAL.incrementAndGet()),
                "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign", "-out", caCert.toString());
        serverKey = rsaKey(dir.resolve("tls.key"));
        serverCert = sign(dir.resolve("tls.crt"), serverKey, "/CN=127.0.0.1", "subjectAltName=IP:127.0.0.1,DNS:localhost");
        clientKey = rsaKey(dir.resolve("client.key"));
        clientCert = sign(dir.resolve("client.crt"), clientKey, "/CN=metacontroller", null);
    }

    /** A new server certificate and key from the same CA, written over these files as cert-manager renews a Secret. */
    void renewServer(Path cert, Path key) throws Exception {
        Path newKey = rsaKey(Files.createTempFile(dir, "renewed", ".key"));
        Path newCert = sign(Files.createTempFile(dir, "renewed", ".crt"), newKey, "/CN=127.0.0.1", "subjectAltName=IP:127.0.0.1");
        Files.write(cert, Files.readAllBytes(newCert));
        Files.write(key, Files.readAllBytes(newKey));
    }

    /** A certificate for a key that is not in the key file beside it. */
    void certificateForAnotherKey(Path cert) throws Exception {
        Path other = rsaKey(Files.createTempFile(dir, "other", ".key"));
        Files.write(cert, Files.readAllBytes(sign(Files.createTempFile(dir, "other", ".crt"), other, "/CN=127.0.0.1",
                "subjectAltName=IP:127.0.0.1")));
    }

    /** A CA's certificate and key: the one this makes, or an intermediate or root of {@link #intermediate} or {@link #root}. */
    public record Authority(Path cert, Path key) {
    }

    /** The CA this made first, which signs the server and client certificates. */
    public Authority ca() {
        return new Authority(caCert, caKey);
    }

    /**
     * A certificate for {@code key}, signed by this CA, valid from {@code notBefore} to {@code notAfter} (to the
     * second), for the names of {@code subjectAltName} ({@code IP:127.0.0.1,DNS:localhost}).
     */
    public Path certificate(Path file, Path key, Instant notBefore, Instant notAfter, String subjectAltName) throws Exception {
        return certificate(ca(), file, key, notBefore, notAfter, subjectAltName);
    }

    /** A certificate for 127.0.0.1 and {@code key}, as {@link #certificate(Path, Path, Instant, Instant, String)}, signed by {@code issuer}. */
    public Path certificate(Authority issuer, Path file, Path key, Instant notBefore, Instant notAfter, String subjectAltName) throws Exception {
        return issue(issuer, file, key, "/CN=127.0.0.1", notBefore, notAfter,
                "basicConstraints=critical,CA:FALSE\nsubjectAltName=" + subjectAltName + "\n");
    }

    /** A certificate for 127.0.0.1 and {@code key} from this CA that expired on {@link #EXPIRED_ON}. */
    public Path expired(Path file, Path key, String subjectAltName) throws Exception {
        return certificate(file, key, EXPIRED_FROM, EXPIRED_ON, subjectAltName);
    }

    /** A certificate for 127.0.0.1 and {@code key} from this CA that is not valid before {@link #FUTURE_FROM}. */
    public Path notYetValid(Path file, Path key, String subjectAltName) throws Exception {
        return certificate(file, key, FUTURE_FROM, FUTURE_UNTIL, subjectAltName);
    }

    /** An intermediate CA of {@code key}, {@code /CN=name}, signed by {@code issuer}, valid from {@code notBefore} to {@code notAfter}. */
    public Authority intermediate(Authority issuer, String name, Path key, Instant notBefore, Instant notAfter) throws Exception {
        Path cert = Files.createTempFile(dir, "intermediate", ".crt");
        return new Authority(issue(issuer, cert, key, "/CN=" + name, notBefore, notAfter, CA_EXTENSIONS), key);
    }

    /** A root CA of {@code key}, {@code /CN=name}, that signed itself, valid from {@code notBefore} to {@code notAfter}. */
    public Authority root(String name, Path key, Instant notBefore, Instant notAfter) throws Exception {
        Path cert = Files.createTempFile(dir, "root", ".crt");
        return new Authority(issue(null, cert, key, "/CN=" + name, notBefore, notAfter, CA_EXTENSIONS), key);
    }

    /** {@code file} holding the PEM certificates of {@code certificates}, in that order, as a chain file or a CA bundle does. */
    public static Path chain(Path file, Path... certificates) throws IOException {
        StringBuilder pem = new StringBuilder();
        for (Path certificate : certificates) {
            pem.append(Files.readString(certificate));
        }
        return Files.writeString(file, pem);
    }

    /**
     * A certificate for {@code key} and {@code subject}, signed by {@code issuer} (null: by {@code key}, itself), valid
     * from {@code notBefore} to {@code notAfter} (to the second), with {@code extensions}: {@code openssl ca}, which
     * alone of openssl 3.0's commands sets both dates.
     */
    private Path issue(Authority issuer, Path file, Path key, String subject, Instant notBefore, Instant notAfter, String extensions)
            throws Exception {
        Path ca = Files.createDirectories(dir.resolve("ca-" + SERIAL.incrementAndGet()));
        Files.writeString(ca.resolve("index.txt"), "");
        Files.writeString(ca.resolve("serial"), String.format("%016x%n", SERIAL.incrementAndGet()));
        Path config = Files.writeString(ca.resolve("ca.cnf"), "[ca]\ndefault_ca = test\n[test]\ndatabase = " + ca.resolve("index.txt")
                + "\nserial = " + ca.resolve("serial") + "\nnew_certs_dir = " + ca + "\ndefault_md = sha256\npolicy = any\n"
                + "unique_subject = no\n[any]\ncommonName = supplied\n");
        Path request = Files.createTempFile(dir, "request", ".csr");
        openssl("req", "-new", "-key", key.toString(), "-subj", subject, "-out", request.toString());
        Path extensionFile = Files.writeString(Files.createTempFile(dir, "extensions", ".cnf"), extensions);
        List<String> command = new ArrayList<>(List.of("ca", "-batch", "-config", config.toString()));
        command.addAll(issuer == null ? List.of("-selfsign", "-keyfile", key.toString())
                : List.of("-cert", issuer.cert().toString(), "-keyfile", issuer.key().toString()));
        command.addAll(List.of("-in", request.toString(), "-startdate", ASN1_TIME.format(notBefore), "-enddate", ASN1_TIME.format(notAfter),
                "-extfile", extensionFile.toString(), "-notext", "-out", file.toString()));
        openssl(command.toArray(String[]::new));
        return file;
    }

    /** A new RSA key (PKCS#1), as cert-manager writes one. */
    public Path newKey(Path file) throws IOException, InterruptedException {
        return rsaKey(file);
    }

    private static Path rsaKey(Path file) throws IOException, InterruptedException {
        openssl("genrsa", "-traditional", "-out", file.toString(), "2048");
        return file;
    }

    /** A certificate for {@code key} that the CA signs: not a CA itself, with {@code names} if not null. */
    private Path sign(Path file, Path key, String subject, String names) throws IOException, InterruptedException {
        Path request = Files.createTempFile(dir, "request", ".csr");
        openssl("req", "-new", "-key", key.toString(), "-subj", subject, "-out", request.toString());
        Path extensions = Files.writeString(Files.createTempFile(dir, "extensions", ".cnf"),
                "basicConstraints=critical,CA:FALSE\n" + (names == null ? "" : names + "\n"));
        openssl("x509", "-req", "-in", request.toString(), "-CA", caCert.toString(), "-CAkey", caKey.toString(),
                "-set_serial", String.valueOf(SERIAL.incrementAndGet()), "-days", "30", "-sha256",
                "-extfile", extensions.toString(), "-out", file.toString());
        return file;
    }

    /** A client's trust managers: the certificates of {@code bundle} (PEM), and nothing else. */
    public static TrustManager[] trusting(Path bundle) throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        List<X509Certificate> certificates = PemFiles.certificates(bundle);
        for (int i = 0; i < certificates.size(); i++) {
            store.setCertificateEntry("ca-" + i, certificates.get(i));
        }
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(store);
        return factory.getTrustManagers();
    }

    /** A client's (or a JDK server's) key managers: the certificate chain and key of these PEM files, the chain as the file orders it. */
    public static KeyManager[] identity(Path cert, Path key) throws Exception {
        char[] password = "test".toCharArray();
        KeyStore store = KeyStore.getInstance("JKS");
        store.load(null, null);
        store.setKeyEntry("client", PemFiles.privateKey(key), password, PemFiles.certificates(cert).toArray(X509Certificate[]::new));
        KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        factory.init(store, password);
        return factory.getKeyManagers();
    }

    /** Runs openssl with {@code arguments}; what it prints is in the exception if it fails. */
    static String openssl(String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("openssl"));
        command.addAll(List.of(arguments));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        process.getOutputStream().close();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
            process.destroy();
            throw new IOException(String.join(" ", command) + " failed: " + output);
        }
        return output;
    }
}
