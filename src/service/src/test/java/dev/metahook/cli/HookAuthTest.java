package dev.metahook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.metahook.internal.server.Certificates;
import dev.metahook.internal.server.ServerConfig;
import dev.metahook.testing.TestServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code check} and {@code render} against metahook's own service behind a bearer token, TLS and mutual TLS, as
 * Metacontroller calls it with {@code endpointConfigs}: clean with the credentials, a breach that says why without them.
 */
class HookAuthTest {
    private static final byte[] KEY = "a key for the hook auth test".getBytes(StandardCharsets.UTF_8);
    private static final List<String> WEBAPP = List.of("--controller", "metacontroller/webapp-controller.yaml", "--parent", "examples/webapp.yaml");

    @TempDir
    static Path dir;
    private static Certificates certificates;
    private static Path token;

    private static Certificates.Authority expiredIntermediate;
    /** The test CA as it was before its renewal: the same name and key, expired. */
    private static Path expiredCaCopy;

    @BeforeAll
    static void credentials() throws Exception {
        certificates = new Certificates(dir);
        token = Files.writeString(dir.resolve("token"), "s3cret-token\n");
        expiredIntermediate = certificates.intermediate(certificates.ca(), "metahook test intermediate",
                certificates.newKey(dir.resolve("intermediate.key")), Certificates.EXPIRED_FROM, Certificates.EXPIRED_ON);
        expiredCaCopy = certificates.root("metahook test CA", certificates.ca().key(), Certificates.EXPIRED_FROM, Certificates.EXPIRED_ON).cert();
    }

    private record Result(int exit, String out, String err) {
    }

    private static Result run(boolean check, List<String> base, String url, String... more) {
        List<String> args = new ArrayList<>(base);
        args.addAll(List.of("--url", url));
        args.addAll(List.of(more));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream saved = System.err;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        int exit;
        try {
            PrintStream stdout = new PrintStream(out, true, StandardCharsets.UTF_8);
            PrintStream stderr = new PrintStream(err, true, StandardCharsets.UTF_8);
            exit = Main.exitCode(() -> check ? CheckCommand.run(args, Map.of(), stdout) : RenderCommand.run(args, Map.of(), stdout, stderr));
        } finally {
            System.setErr(saved);
        }
        return new Result(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aHookBehindABearerTokenIsCheckedAndRenderedWithTheTokenFile() {
        try (TestServer server = TestServer.start(BuiltInControllers.all(KEY), ServerConfig.defaults().withAuth(new ServerConfig.Auth(token, null, null)))) {
            Result without = run(true, WEBAPP, server.url(""));
            assertEquals(1, without.exit(), without.out());
            assertTrue(without.out().contains("BREACH status: sync answered 401"), without.out());

            Result with = run(true, WEBAPP, server.url(""), "--token-file", token.toString());
            assertEquals(0, with.exit(), with.out() + with.err());
            assertTrue(with.out().startsWith("check: clean ("), with.out());

            Result rendered = run(false, WEBAPP, server.url(""), "--token-file", token.toString());
            assertEquals(0, rendered.exit(), rendered.err());
            assertTrue(rendered.out().contains("kind: Deployment"), rendered.out());
            Result refused = run(false, WEBAPP, server.url(""));
            assertEquals(1, refused.exit(), refused.out());
            assertTrue(refused.err().contains("401"), refused.err());
        }
    }

    @Test
    void aHookBehindMutualTlsAndATokenIsCheckedWithTheCaTheClientCertificateAndTheToken() {
        ServerConfig config = ServerConfig.defaults()
                .withTls(new ServerConfig.Tls(certificates.serverCert, certificates.serverKey, certificates.caCert))
                .withAuth(new ServerConfig.Auth(token, null, null));
        try (TestServer server = TestServer.start(BuiltInControllers.all(KEY), config)) {
            String url = "https://127.0.0.1:" + server.port();
            Result with = run(true, WEBAPP, url, "--token-file", token.toString(), "--cacert", certificates.caCert.toString(),
                    "--cert", certificates.clientCert.toString(), "--key", certificates.clientKey.toString());
            assertEquals(0, with.exit(), with.out() + with.err());

            Result rendered = run(false, WEBAPP, url, "--token-file", token.toString(), "--cacert", certificates.caCert.toString(),
                    "--cert", certificates.clientCert.toString(), "--key", certificates.clientKey.toString());
            assertEquals(0, rendered.exit(), rendered.err());

            Result noClientCertificate = run(true, WEBAPP, url, "--token-file", token.toString(), "--cacert", certificates.caCert.toString());
            assertEquals(1, noClientCertificate.exit(), noClientCertificate.out());
            assertTrue(noClientCertificate.out().contains("BREACH no-answer: sync: http error: Post \"" + url + "/webapp/sync\""),
                    noClientCertificate.out());

            Result untrusted = run(true, WEBAPP, url, "--token-file", token.toString(),
                    "--cert", certificates.clientCert.toString(), "--key", certificates.clientKey.toString());
            assertEquals(1, untrusted.exit(), untrusted.out());
            assertBreach(untrusted, url, "TLS handshake with 127.0.0.1:" + server.port() + " failed: the hook's certificate is refused: "
                    + "signed by a CA not in the Java runtime's trusted CAs (give the hook's CA with --cacert)");
        }
    }

    @Test
    void aHookBehindTlsAloneNeedsOnlyTheCa() {
        ServerConfig config = ServerConfig.defaults().withTls(new ServerConfig.Tls(certificates.serverCert, certificates.serverKey, null));
        try (TestServer server = TestServer.start(BuiltInControllers.all(KEY), config)) {
            Result with = run(true, WEBAPP, "https://127.0.0.1:" + server.port(), "--cacert", certificates.caCert.toString());
            assertEquals(0, with.exit(), with.out() + with.err());
        }
    }

    @Test
    void credentialsThatCannotBeUsedAreUsageErrorsNamingTheFile() {
        Result certWithoutKey = run(true, WEBAPP, "https://127.0.0.1:1", "--cert", certificates.clientCert.toString());
        assertEquals(2, certWithoutKey.exit());
        assertTrue(certWithoutKey.err().contains("--cert needs --key"), certWithoutKey.err());

        Path missing = dir.resolve("no-such-token");
        Result noToken = run(true, WEBAPP, "http://127.0.0.1:1", "--token-file", missing.toString());
        assertEquals(2, noToken.exit());
        assertEquals("metahook: --token-file " + missing + ": not found\n", noToken.err());

        Result notACertificate = run(true, WEBAPP, "https://127.0.0.1:1", "--cacert", token.toString());
        assertEquals(2, notACertificate.exit());
        assertTrue(notACertificate.err().contains("--cacert " + token), notACertificate.err());
        assertTrue(notACertificate.err().contains("holds no certificate"), notACertificate.err());

        List<String> inProcess = new ArrayList<>(WEBAPP);
        inProcess.addAll(List.of("--token-file", token.toString()));
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream saved = System.err;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            assertEquals(2, Main.exitCode(() -> CheckCommand.run(inProcess, Map.of(), new PrintStream(new ByteArrayOutputStream()))));
        } finally {
            System.setErr(saved);
        }
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("are for a hook at --url"), err.toString(StandardCharsets.UTF_8));
    }

    /** The one line of a breach that no answer came, for the first sync of the check. */
    private static void assertBreach(Result result, String url, String why) {
        String breach = "BREACH no-answer: sync: http error: Post \"" + url + "/webapp/sync\": " + why;
        assertTrue(result.out().lines().anyMatch(line -> line.strip().startsWith(breach)), breach + "\n" + result.out());
    }

    @Test
    void aHookCertificateFromAnotherCaSaysTheCaIsNotInCacert() throws Exception {
        Certificates other = new Certificates(Files.createDirectories(dir.resolve("other-ca")));
        ServerConfig config = ServerConfig.defaults().withTls(new ServerConfig.Tls(certificates.serverCert, certificates.serverKey, null));
        try (TestServer server = TestServer.start(BuiltInControllers.all(KEY), config)) {
            String url = "https://127.0.0.1:" + server.port();
            Result result = run(true, WEBAPP, url, "--cacert", other.caCert.toString());
            assertEquals(1, result.exit(), result.out());
            assertBreach(result, url, "TLS handshake with 127.0.0.1:" + server.port() + " failed: the hook's certificate is refused: "
                    + "signed by a CA not in --cacert " + other.caCert);
        }
    }

    @Test
    void aHookCertificateForAnotherNameSaysWhichNamesItIsFor() throws Exception {
        Path key = certificates.newKey(dir.resolve("localhost.key"));
        Path cert = certificates.certificate(dir.resolve("localhost.crt"), key, Instant.now().minusSeconds(3600),
                Instant.now().plus(Duration.ofDays(30)), "DNS:localhost,DNS:hooks.example");
        ServerConfig config = ServerConfig.defaults().withTls(new ServerConfig.Tls(cert, key, null));
        try (TestServer server = TestServer.start(BuiltInControllers.all(KEY), config)) {
            String url = "https://127.0.0.1:" + server.port();
            Result result = run(true, WEBAPP, url, "--cacert", certificates.caCert.toString());
            assertEquals(1, result.exit(), result.out());
            assertBreach(result, url, "TLS handshake with 127.0.0.1:" + server.port() + " failed: the hook's certificate is refused: "
                    + "issued for localhost, hooks.example, not 127.0.0.1");
        }
    }

    /** The service refuses to serve an expired certificate, so a server of the JDK's own serves one. */
    @Test
    void anExpiredHookCertificateSaysWhenItExpired() throws Exception {
        Path expired = certificates.expired(dir.resolve("expired.crt"), certificates.serverKey, "IP:127.0.0.1");
        try (SSLServerSocket listener = handshakesOnly(expired, certificates.serverKey)) {
            String url = "https://127.0.0.1:" + listener.getLocalPort();
            Result result = run(true, WEBAPP, url, "--cacert", certificates.caCert.toString());
            assertEquals(1, result.exit(), result.out());
            assertBreach(result, url, "TLS handshake with 127.0.0.1:" + listener.getLocalPort() + " failed: the hook's certificate is refused: "
                    + "expired on 2025-01-02T00:00:00Z");
        }
    }

    /** A hook that sends a valid certificate with the expired intermediate it was issued under: the intermediate is named. */
    @Test
    void anExpiredIntermediateOfTheHooksChainIsNamedWithItsDate() throws Exception {
        Path chain = Certificates.chain(dir.resolve("hook-chain.crt"), chainedLeaf(dir.resolve("hook-leaf.crt"), certificates.serverKey,
                "IP:127.0.0.1"), expiredIntermediate.cert());
        try (SSLServerSocket listener = handshakesOnly(chain, certificates.serverKey)) {
            String url = "https://127.0.0.1:" + listener.getLocalPort();
            Result result = run(true, WEBAPP, url, "--cacert", certificates.caCert.toString());
            assertEquals(1, result.exit(), result.out());
            assertBreach(result, url, "TLS handshake with 127.0.0.1:" + listener.getLocalPort() + " failed: the hook's certificate is refused: "
                    + "certificate 2 (CN=metahook test intermediate) expired on 2025-01-02T00:00:00Z");
        }
    }

    /**
     * A CA bundle may hold CAs out of their validity beside the one that signed the peer's certificate (an old copy of
     * that CA, another CA that has expired): Go takes the one that verifies, and so do {@code --cacert} and the
     * service's {@code TLS_CLIENT_CA_FILE}.
     */
    @Test
    void aCaBundleWithExpiredCasBesideAValidOneIsAccepted() throws Exception {
        Path other = certificates.root("metahook expired CA", certificates.newKey(dir.resolve("expired-ca.key")), Certificates.EXPIRED_FROM,
                Certificates.EXPIRED_ON).cert();
        Path bundle = Certificates.chain(dir.resolve("bundle.crt"), expiredCaCopy, other, certificates.caCert);
        ServerConfig config = ServerConfig.defaults().withTls(new ServerConfig.Tls(certificates.serverCert, certificates.serverKey, bundle));
        try (TestServer server = TestServer.start(BuiltInControllers.all(KEY), config)) {
            Result checked = run(true, WEBAPP, "https://127.0.0.1:" + server.port(), "--cacert", bundle.toString(),
                    "--cert", certificates.clientCert.toString(), "--key", certificates.clientKey.toString());
            assertEquals(0, checked.exit(), checked.out() + checked.err());
            assertTrue(checked.out().startsWith("check: clean ("), checked.out());
        }
    }

    /**
     * Go verifies the dates of every certificate up to the root it trusts, the root included (the JDK's trust does not):
     * a hook whose CA is in {@code --cacert} only as a copy out of its validity fails every call from Metacontroller,
     * and {@code check} says so rather than calling it clean.
     */
    @Test
    void aHookCertificateWhoseOnlyCaInCacertHasExpiredIsRefused() throws Exception {
        ServerConfig config = ServerConfig.defaults().withTls(new ServerConfig.Tls(certificates.serverCert, certificates.serverKey, null));
        try (TestServer server = TestServer.start(BuiltInControllers.all(KEY), config)) {
            String url = "https://127.0.0.1:" + server.port();
            Result result = run(true, WEBAPP, url, "--cacert", expiredCaCopy.toString());
            assertEquals(1, result.exit(), result.out());
            assertBreach(result, url, "TLS handshake with 127.0.0.1:" + server.port() + " failed: the hook's certificate is refused: "
                    + "signed by a CA --cacert " + expiredCaCopy + " holds only out of its validity (CN=metahook test CA, expired on 2025-01-02T00:00:00Z)");
        }
    }

    /** The service trusts the client CAs of its bundle as a Go server does: a client certificate under an expired one is refused. */
    @Test
    void aClientCertificateWhoseOnlyCaInTheServicesBundleHasExpiredIsRefused() throws Exception {
        assertClientCertificateRefused(expiredCaCopy, certificates, " (TLS alert");
    }

    /**
     * A check with {@code client}'s certificate against the service trusting the client CAs of {@code clientCas}: exit 1,
     * a breach saying the hook refused the client certificate, followed by {@code detail}.
     */
    private static void assertClientCertificateRefused(Path clientCas, Certificates client, String detail) throws Exception {
        ServerConfig config = ServerConfig.defaults().withTls(new ServerConfig.Tls(certificates.serverCert, certificates.serverKey, clientCas));
        try (TestServer server = TestServer.start(BuiltInControllers.all(KEY), config)) {
            String url = "https://127.0.0.1:" + server.port();
            Result result = run(true, WEBAPP, url, "--cacert", certificates.caCert.toString(),
                    "--cert", client.clientCert.toString(), "--key", client.clientKey.toString());
            assertEquals(1, result.exit(), result.out());
            assertBreach(result, url, "TLS failure talking to 127.0.0.1:" + server.port() + ": the hook refused the client certificate" + detail);
        }
    }

    /** A TLS server of the JDK's own that serves {@code cert} and {@code key} and answers nothing: for what metahook refuses to serve. */
    private static SSLServerSocket handshakesOnly(Path cert, Path key) throws Exception {
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(Certificates.identity(cert, key), null, null);
        SSLServerSocket listener = (SSLServerSocket) context.getServerSocketFactory().createServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread handshakes = new Thread(() -> {
            while (!listener.isClosed()) {
                try (SSLSocket socket = (SSLSocket) listener.accept()) {
                    socket.startHandshake();
                } catch (IOException e) {
                    // the client refused the certificate, as the test wants
                }
            }
        });
        handshakes.setDaemon(true);
        handshakes.start();
        return listener;
    }

    /** A certificate for {@code key}, valid for a month, issued under the intermediate that has expired. */
    private static Path chainedLeaf(Path file, Path key, String names) throws Exception {
        return certificates.certificate(expiredIntermediate, file, key, Instant.now().minus(Duration.ofDays(1)), Instant.now().plus(Duration.ofDays(30)),
                names);
    }

    @Test
    void aHookThatRefusesTheClientCertificateSaysSo() throws Exception {
        Certificates other = new Certificates(Files.createDirectories(dir.resolve("client-ca")));
        assertClientCertificateRefused(certificates.caCert, other, "");
    }

    /** What is wrong with a client certificate the command can see itself is said before any call: exit 2, the file and why. */
    @Test
    void aClientCertificateOutOfItsValidityOrWithAnotherKeyIsRefusedBeforeAnyCall() throws Exception {
        Path expired = certificates.expired(dir.resolve("expired-client.crt"), certificates.clientKey, "DNS:metacontroller");
        Result result = run(true, WEBAPP, "https://127.0.0.1:1", "--cert", expired.toString(), "--key", certificates.clientKey.toString());
        assertEquals(2, result.exit());
        assertEquals("metahook: --cert " + expired + ": expired on 2025-01-02T00:00:00Z\n", result.err());

        Path future = certificates.notYetValid(dir.resolve("future-client.crt"), certificates.clientKey, "DNS:metacontroller");
        result = run(true, WEBAPP, "https://127.0.0.1:1", "--cert", future.toString(), "--key", certificates.clientKey.toString());
        assertEquals("metahook: --cert " + future + ": not valid before 2099-01-01T00:00:00Z\n", result.err());

        Path chain = Certificates.chain(dir.resolve("client-chain.crt"), chainedLeaf(dir.resolve("chained-client.crt"), certificates.clientKey,
                "DNS:metacontroller"), expiredIntermediate.cert());
        result = run(true, WEBAPP, "https://127.0.0.1:1", "--cert", chain.toString(), "--key", certificates.clientKey.toString());
        assertEquals(2, result.exit());
        assertEquals("metahook: --cert " + chain + ": certificate 2 (CN=metahook test intermediate) expired on 2025-01-02T00:00:00Z\n", result.err());

        result = run(true, WEBAPP, "https://127.0.0.1:1", "--cert", certificates.clientCert.toString(), "--key", certificates.serverKey.toString());
        assertEquals(2, result.exit());
        assertEquals("metahook: --key " + certificates.serverKey + ": not the key of this certificate (--cert " + certificates.clientCert + ")\n",
                result.err());
    }

    @Test
    void credentialFilesNotFoundOrEmptyAreNamedWithWhy() throws Exception {
        Path missing = dir.resolve("missing.crt");
        Path empty = Files.writeString(dir.resolve("empty-token"), "\uFEFF\n \n");
        assertEquals("metahook: --token-file " + empty + ": empty\n", run(true, WEBAPP, "http://127.0.0.1:1", "--token-file", empty.toString()).err());
        assertEquals("metahook: --cacert " + missing + ": not found\n", run(true, WEBAPP, "https://127.0.0.1:1", "--cacert", missing.toString()).err());
        assertEquals("metahook: --cert " + missing + ": not found\n",
                run(true, WEBAPP, "https://127.0.0.1:1", "--cert", missing.toString(), "--key", certificates.clientKey.toString()).err());
        assertEquals("metahook: --key " + missing + ": not found\n",
                run(true, WEBAPP, "https://127.0.0.1:1", "--cert", certificates.clientCert.toString(), "--key", missing.toString()).err());
        assertEquals("metahook: --key " + dir + ": a directory, not a file\n",
                run(true, WEBAPP, "https://127.0.0.1:1", "--cert", certificates.clientCert.toString(), "--key", dir.toString()).err());
    }
}
