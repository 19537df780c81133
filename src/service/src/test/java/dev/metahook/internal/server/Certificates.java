package dev.metahook.internal.server;

import java.io.StringWriter;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/** A throwaway CA, a server certificate for 127.0.0.1 and a client certificate, written as PEM files like a TLS Secret's. */
final class Certificates {
    final Path caCert;
    final Path serverCert;
    final Path serverKey;
    final Path clientCert;
    final Path clientKey;
    private static final java.util.concurrent.atomic.AtomicLong SERIAL = new java.util.concurrent.atomic.AtomicLong(System.currentTimeMillis());
    private final KeyPair ca;

    Certificates(Path dir) throws Exception {
        ca = keys();
        X509Certificate caCertificate = sign("CN=metahook test CA", ca, "CN=metahook test CA", ca, true, null);
        KeyPair server = keys();
        X509Certificate serverCertificate = sign("CN=127.0.0.1", server, "CN=metahook test CA", ca, false,
                new GeneralNames(new GeneralName[] {new GeneralName(GeneralName.iPAddress, "127.0.0.1"),
                        new GeneralName(GeneralName.dNSName, "localhost")}));
        KeyPair client = keys();
        X509Certificate clientCertificate = sign("CN=metacontroller", client, "CN=metahook test CA", ca, false, null);
        caCert = write(dir.resolve("ca.crt"), caCertificate);
        serverCert = write(dir.resolve("tls.crt"), serverCertificate);
        serverKey = write(dir.resolve("tls.key"), server.getPrivate());
        clientCert = write(dir.resolve("client.crt"), clientCertificate);
        clientKey = write(dir.resolve("client.key"), client.getPrivate());
    }

    /** A new server certificate and key from the same CA, written over these files as cert-manager renews a Secret. */
    void renewServer(Path cert, Path key) throws Exception {
        KeyPair server = keys();
        write(cert, sign("CN=127.0.0.1", server, "CN=metahook test CA", ca, false,
                new GeneralNames(new GeneralName[] {new GeneralName(GeneralName.iPAddress, "127.0.0.1")})));
        write(key, server.getPrivate());
    }

    /** A certificate for a key that is not in the key file beside it. */
    void certificateForAnotherKey(Path cert) throws Exception {
        write(cert, sign("CN=127.0.0.1", keys(), "CN=metahook test CA", ca, false,
                new GeneralNames(new GeneralName[] {new GeneralName(GeneralName.iPAddress, "127.0.0.1")})));
    }

    private static KeyPair keys() throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        return generator.generateKeyPair();
    }

    private static X509Certificate sign(String subject, KeyPair subjectKeys, String issuer, KeyPair issuerKeys, boolean ca,
                                        GeneralNames names) throws Exception {
        Instant now = Instant.now();
        JcaX509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(new X500Name(issuer), BigInteger.valueOf(SERIAL.incrementAndGet()),
                Date.from(now.minus(Duration.ofHours(1))), Date.from(now.plus(Duration.ofDays(1))), new X500Name(subject),
                subjectKeys.getPublic());
        builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(ca));
        if (names != null) {
            builder.addExtension(Extension.subjectAlternativeName, false, names);
        }
        return new JcaX509CertificateConverter().getCertificate(
                builder.build(new JcaContentSignerBuilder("SHA256withRSA").build(issuerKeys.getPrivate())));
    }

    private static Path write(Path file, Object pem) throws Exception {
        StringWriter text = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(text)) {
            writer.writeObject(pem);
        }
        return Files.writeString(file, text.toString());
    }
}
