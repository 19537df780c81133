package dev.metahook.internal.server;

import static dev.metahook.internal.server.Certificates.openssl;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.security.spec.MGF1ParameterSpec;
import java.security.spec.PSSParameterSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * PEM files as openssl (and cert-manager) write them, read with the JDK alone: every key form a TLS
 * Secret may hold serves a real handshake, and what cannot be used is refused with the file named.
 */
class PemFilesTest {
    @TempDir
    Path dir;

    /**
     * Each key form openssl writes: the key is read, signs what its self-signed certificate's public key
     * verifies, and a TlsConnector serving the pair completes a TLS 1.3 and a TLS 1.2 handshake that
     * presents that certificate.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "PKCS#8 RSA        | PRIVATE KEY     | RSA     | genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out KEY",
        "PKCS#1 RSA        | RSA PRIVATE KEY | RSA     | genrsa -traditional -out KEY 2048",
        "PKCS#8 RSASSA-PSS | PRIVATE KEY     | RSASSA-PSS | genpkey -algorithm RSA-PSS -pkeyopt rsa_keygen_bits:2048 -out KEY",
        "PKCS#8 EC P-256   | PRIVATE KEY     | EC      | genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out KEY",
        "SEC1 P-256 after its EC PARAMETERS | EC PRIVATE KEY | EC | ecparam -genkey -name prime256v1 -out KEY",
        "SEC1 P-384        | EC PRIVATE KEY  | EC      | ecparam -genkey -name secp384r1 -noout -out KEY",
        "SEC1 P-521        | EC PRIVATE KEY  | EC      | ecparam -genkey -name secp521r1 -noout -out KEY",
        "PKCS#8 Ed25519    | PRIVATE KEY     | EdDSA   | genpkey -algorithm ed25519 -out KEY",
        "PKCS#8 Ed448      | PRIVATE KEY     | EdDSA   | genpkey -algorithm ed448 -out KEY",
    })
    void everyKeyFormSignsForItsCertificateAndServesAHandshake(String form, String label, String algorithm, String generate) throws Exception {
        Path key = dir.resolve("tls.key");
        openssl(generate.replace("KEY", key.toString()).split(" "));
        assertTrue(Files.readString(key).contains("-----BEGIN " + label + "-----"), form + " is written as " + label);
        Path cert = selfSigned(key);
        assertServes(cert, key, algorithm);
    }

    /** A SEC1 key without its parameters field takes its curve from the EC PARAMETERS block before it. */
    @Test
    void aSec1KeyWithoutParametersTakesTheCurveOfTheEcParametersBlock() throws Exception {
        Path full = dir.resolve("full.key");
        openssl("ecparam", "-genkey", "-name", "prime256v1", "-out", full.toString());
        Path cert = selfSigned(full);
        Path bare = dir.resolve("bare.key");
        openssl("ec", "-in", full.toString(), "-no_public", "-out", bare.toString());
        // SEQUENCE {INTEGER 1, OCTET STRING (32 bytes), [0] {OID prime256v1}}: drop the last 12 bytes, [0] and its OID
        byte[] der = PemFiles.blocks(bare, Files.readAllBytes(bare)).get(0).der();
        assertEquals(2 + 3 + 34 + 12, der.length);
        assertEquals(0xa0, der[der.length - 12] & 0xff);
        byte[] withoutParameters = PemFiles.tlv(0x30, Arrays.copyOfRange(der, 2, der.length - 12));
        String parameters = Files.readString(full);
        parameters = parameters.substring(0, parameters.indexOf("-----BEGIN EC PRIVATE KEY-----"));
        Files.writeString(bare, parameters + pem("EC PRIVATE KEY", withoutParameters));
        assertServes(cert, bare, "EC");

        Files.writeString(bare, pem("EC PRIVATE KEY", withoutParameters));
        assertRefused(bare, "names no curve");
    }

    /** A chain or CA bundle: every CERTIFICATE block, in order, whatever text and line endings lie around them. */
    @Test
    void readsEveryCertificateOfAChainOrBundle() throws Exception {
        Certificates certificates = new Certificates(dir);
        String server = Files.readString(certificates.serverCert);
        String ca = Files.readString(certificates.caCert);
        Path chain = Files.writeString(dir.resolve("chain.crt"), "# the server, then its CA\nBag Attributes\n    friendlyName: tls\n"
                + server + "\n\n" + ca.replace("\n", "\r\n") + "trailing words\n");
        List<X509Certificate> read = PemFiles.certificates(chain);
        assertEquals(List.of("CN=127.0.0.1", "CN=metahook test CA"), read.stream().map(c -> c.getSubjectX500Principal().getName()).toList());
        assertEquals(PemFiles.certificates(certificates.serverCert), read.subList(0, 1));
    }

    /** A client CA bundle of two CAs: a client certificate that either one signed is taken. */
    @Test
    void aClientCaBundleTrustsEveryCaInIt() throws Exception {
        Certificates first = new Certificates(Files.createDirectories(dir.resolve("first")));
        Certificates second = new Certificates(Files.createDirectories(dir.resolve("second")));
        Path bundle = Files.writeString(dir.resolve("ca-bundle.crt"), Files.readString(first.caCert) + Files.readString(second.caCert));
        Server server = new Server();
        try (TlsConnector tls = TlsConnector.create(server, new HttpConfiguration(), new ServerConfig.Tls(first.serverCert, first.serverKey, bundle))) {
            int port = start(server, tls.connector());
            for (Certificates client : List.of(first, second)) {
                SSLContext context = SSLContext.getInstance("TLS");
                context.init(Certificates.identity(client.clientCert, client.clientKey), Certificates.trusting(first.caCert), null);
                try (SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", port)) {
                    socket.startHandshake();
                    assertEquals("TLSv1.3", socket.getSession().getProtocol());
                }
            }
        } finally {
            server.stop();
        }
    }

    /** Encrypted keys, as PKCS#8 or as PKCS#1 with Proc-Type: refused, the file named and why. */
    @Test
    void refusesEncryptedKeysNamingTheFile() throws Exception {
        Path plain = dir.resolve("plain.key");
        openssl("genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", plain.toString());
        Path pkcs8 = dir.resolve("encrypted-pkcs8.key");
        openssl("pkcs8", "-topk8", "-v2", "aes-256-cbc", "-passout", "pass:x", "-in", plain.toString(), "-out", pkcs8.toString());
        assertTrue(Files.readString(pkcs8).contains("-----BEGIN ENCRYPTED PRIVATE KEY-----"));
        assertRefused(pkcs8, "holds an encrypted private key (ENCRYPTED PRIVATE KEY at line 1): the key must be unencrypted");

        Path pkcs1 = dir.resolve("encrypted-pkcs1.key");
        openssl("genrsa", "-traditional", "-aes256", "-passout", "pass:x", "-out", pkcs1.toString(), "2048");
        assertTrue(Files.readString(pkcs1).contains("Proc-Type: 4,ENCRYPTED"));
        assertRefused(pkcs1, "holds an encrypted private key (RSA PRIVATE KEY at line 1): the key must be unencrypted");

        Path cert = selfSigned(plain);
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> TlsConnector.create(new Server(), new HttpConfiguration(), new ServerConfig.Tls(cert, pkcs8, null)));
        assertTrue(error.getMessage().startsWith("TLS_KEY_FILE " + pkcs8 + ": holds an encrypted private key"), error.getMessage());
    }

    /** Files without what they should hold, cut short, not base64, not DER, explicit curves: each error names the file and what was expected. */
    @Test
    void saysWhatAFileLacksAndNamesIt() throws Exception {
        Path key = dir.resolve("tls.key");
        openssl("genrsa", "-traditional", "-out", key.toString(), "2048");
        Path cert = selfSigned(key);
        String certificate = Files.readString(cert);

        assertRefused(cert, "holds no private key: a PEM -----BEGIN PRIVATE KEY----- (PKCS#8), -----BEGIN RSA PRIVATE KEY----- (PKCS#1) "
                + "or -----BEGIN EC PRIVATE KEY----- (SEC1) block was expected, and the file has only CERTIFICATE");
        assertNoCertificate(key, "holds no certificate: a PEM -----BEGIN CERTIFICATE----- block was expected, and the file has only RSA PRIVATE KEY");
        assertNoCertificate(Files.writeString(dir.resolve("empty.crt"), ""), "holds no certificate");
        assertNoCertificate(Files.writeString(dir.resolve("words.crt"), "not a certificate"), "and the file has no PEM block at all");
        assertNoCertificate(Files.writeString(dir.resolve("garbage.crt"), "-----BEGIN CERTIFICATE-----\nM!!*not base64*\n-----END CERTIFICATE-----\n"),
                ": the CERTIFICATE at line 1 is not base64");
        assertNoCertificate(Files.writeString(dir.resolve("half.crt"), certificate.substring(0, certificate.length() / 2)),
                ": the CERTIFICATE at line 1 has no -----END CERTIFICATE----- line");
        assertNoCertificate(Files.writeString(dir.resolve("cut.crt"), certificate.substring(0, certificate.length() / 2) + "\n" + certificate),
                ": the CERTIFICATE at line 1 has no -----END CERTIFICATE----- line");
        assertNoCertificate(Files.writeString(dir.resolve("notder.crt"), pem("CERTIFICATE", "not DER".getBytes(StandardCharsets.US_ASCII))),
                ": the CERTIFICATE at line 1 is not an X.509 certificate");

        assertRefused(Files.writeString(dir.resolve("notder.key"), pem("PRIVATE KEY", new byte[] {1, 2, 3})),
                ": the PRIVATE KEY at line 1 is not a DER PRIVATE KEY");
        assertRefused(Files.writeString(dir.resolve("notrsa.key"), pem("RSA PRIVATE KEY", new byte[] {0x30, 0})),
                ": the RSA PRIVATE KEY at line 1 cannot be read as a key");
        assertRefused(Files.writeString(dir.resolve("two.key"), Files.readString(key) + Files.readString(key)), "holds 2 private keys");
        assertRefused(Files.writeString(dir.resolve("dsa.key"), pem("DSA PRIVATE KEY", new byte[] {0x30, 0})),
                ": the DSA PRIVATE KEY at line 1 is not a key this service reads");
        Path x25519 = dir.resolve("x25519.key");
        openssl("genpkey", "-algorithm", "x25519", "-out", x25519.toString());
        assertRefused(x25519, "is a key of algorithm 1.3.101.110: RSA, RSASSA-PSS, EC, Ed25519 or Ed448 was expected");
        Path explicit = dir.resolve("explicit.key");
        openssl("ecparam", "-genkey", "-name", "prime256v1", "-param_enc", "explicit", "-noout", "-out", explicit.toString());
        assertRefused(explicit, "gives its curve as explicit parameters: a named curve (P-256, P-384, P-521) was expected");
    }

    /** A key of one type beside a certificate of another is not the certificate's key. */
    @Test
    void aKeyOfAnotherTypeIsNotTheCertificatesKey() throws Exception {
        Path rsa = dir.resolve("rsa.key");
        openssl("genrsa", "-traditional", "-out", rsa.toString(), "2048");
        Path cert = selfSigned(rsa);
        Path ec = dir.resolve("ec.key");
        openssl("ecparam", "-genkey", "-name", "prime256v1", "-noout", "-out", ec.toString());
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> TlsConnector.create(new Server(), new HttpConfiguration(), new ServerConfig.Tls(cert, ec, null)));
        assertEquals("TLS_KEY_FILE " + ec + ": not the key of this certificate (TLS_CERT_FILE " + cert + ")", error.getMessage());
    }

    private Path selfSigned(Path key) throws Exception {
        Path cert = dir.resolve(key.getFileName() + ".crt");
        openssl("req", "-x509", "-key", key.toString(), "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                "-days", "1", "-out", cert.toString());
        return cert;
    }

    private static void assertServes(Path cert, Path key, String algorithm) throws Exception {
        PrivateKey read = PemFiles.privateKey(key);
        assertEquals(algorithm, read.getAlgorithm());
        List<X509Certificate> chain = PemFiles.certificates(cert);
        assertEquals(1, chain.size());
        assertSignsFor(read, chain.get(0));
        Server server = new Server();
        try (TlsConnector tls = TlsConnector.create(server, new HttpConfiguration(), new ServerConfig.Tls(cert, key, null))) {
            int port = start(server, tls.connector());
            for (String protocol : List.of("TLSv1.3", "TLSv1.2")) {
                SSLContext context = SSLContext.getInstance("TLS");
                context.init(null, Certificates.trusting(cert), null);
                try (SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", port)) {
                    socket.setEnabledProtocols(new String[] {protocol});
                    socket.startHandshake();
                    assertEquals(protocol, socket.getSession().getProtocol());
                    assertEquals(chain.get(0), socket.getSession().getPeerCertificates()[0], protocol);
                }
            }
        } finally {
            server.stop();
        }
    }

    /** The key signs, and the certificate's public key verifies the signature. */
    private static void assertSignsFor(PrivateKey key, X509Certificate certificate) throws Exception {
        Signature signer;
        Signature verifier;
        if (key.getAlgorithm().equals("RSASSA-PSS")) {
            PSSParameterSpec pss = new PSSParameterSpec("SHA-256", "MGF1",
                    MGF1ParameterSpec.SHA256, 32, 1);
            signer = Signature.getInstance("RSASSA-PSS");
            signer.setParameter(pss);
            verifier = Signature.getInstance("RSASSA-PSS");
            verifier.setParameter(pss);
        } else {
            String algorithm = switch (key.getAlgorithm()) {
                case "RSA" -> "SHA256withRSA";
                case "EC" -> "SHA256withECDSA";
                default -> key.getAlgorithm();
            };
            signer = Signature.getInstance(algorithm);
            verifier = Signature.getInstance(algorithm);
        }
        byte[] message = "signed by the key in the file".getBytes(StandardCharsets.UTF_8);
        signer.initSign(key);
        signer.update(message);
        byte[] signature = signer.sign();
        verifier.initVerify(certificate.getPublicKey());
        verifier.update(message);
        assertTrue(verifier.verify(signature), "the certificate's public key verifies what the key signed");
    }

    private static int start(Server server, ServerConnector connector) throws Exception {
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        server.start();
        return connector.getLocalPort();
    }

    private static void assertRefused(Path key, String why) {
        GeneralSecurityException error = assertThrows(GeneralSecurityException.class, () -> PemFiles.privateKey(key));
        assertTrue(error.getMessage().startsWith(key.toString()), "names the file: " + error.getMessage());
        assertTrue(error.getMessage().contains(why), error.getMessage());
    }

    private static void assertNoCertificate(Path cert, String why) {
        GeneralSecurityException error = assertThrows(GeneralSecurityException.class, () -> PemFiles.certificates(cert));
        assertTrue(error.getMessage().startsWith(cert.toString()), "names the file: " + error.getMessage());
        assertTrue(error.getMessage().contains(why), error.getMessage());
    }

    private static String pem(String label, byte[] der) {
        List<String> lines = new ArrayList<>();
        lines.add("-----BEGIN " + label + "-----");
        String base64 = Base64.getEncoder().encodeToString(der);
        for (int i = 0; i < base64.length(); i += 64) {
            lines.add(base64.substring(i, Math.min(base64.length(), i + 64)));
        }
        lines.add("-----END " + label + "-----");
        return String.join("\n", lines) + "\n";
    }

    @Test
    void derLengthsOfEveryForm() {
        assertArrayEquals(new byte[] {0x04, 0x01, 0x07}, PemFiles.tlv(0x04, new byte[] {7}));
        assertArrayEquals(new byte[] {0x04, (byte) 0x81, (byte) 0x80}, Arrays.copyOf(PemFiles.tlv(0x04, new byte[0x80]), 3));
        assertArrayEquals(new byte[] {0x04, (byte) 0x82, 0x01, 0x00}, Arrays.copyOf(PemFiles.tlv(0x04, new byte[0x100]), 4));
        assertEquals(4 + 0x100, PemFiles.tlv(0x04, new byte[0x100]).length);
    }
}
