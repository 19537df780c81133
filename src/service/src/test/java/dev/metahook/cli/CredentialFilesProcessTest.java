package dev.metahook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.metahook.internal.server.Certificates;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A credential file the service or {@code check} cannot use, in a process of its own as a user runs it: exit code 2
 * and one line naming the setting, the file and why. A file the process may not read needs a process that is not
 * root, or root without the capabilities that let it read any file: as root, the process runs under {@code setpriv}
 * with {@code CAP_DAC_OVERRIDE} and {@code CAP_DAC_READ_SEARCH} dropped, so a file of mode {@code 000} is refused
 * to it as it is to any other user.
 */
class CredentialFilesProcessTest {
    @TempDir
    static Path dir;
    private static Certificates certificates;
    private static Path unreadable;

    @BeforeAll
    static void files() throws Exception {
        certificates = new Certificates(dir);
        unreadable = Files.writeString(dir.resolve("unreadable"), "s3cret\n");
        Files.setPosixFilePermissions(unreadable, PosixFilePermissions.fromString("---------"));
    }

    @Test
    void aTokenFileTheServiceMayNotReadStopsItsStart() throws Exception {
        assertEquals("metahook: AUTH_BEARER_TOKEN_FILE " + unreadable + ": permission denied", serve(Map.of("AUTH_BEARER_TOKEN_FILE", unreadable.toString())));
    }

    @Test
    void tlsFilesTheServiceMayNotReadStopItsStart() throws Exception {
        assertEquals("metahook: TLS_KEY_FILE " + unreadable + ": permission denied",
                serve(Map.of("TLS_CERT_FILE", certificates.serverCert.toString(), "TLS_KEY_FILE", unreadable.toString())));
        assertEquals("metahook: TLS_CLIENT_CA_FILE " + unreadable + ": permission denied", serve(Map.of("TLS_CERT_FILE",
                certificates.serverCert.toString(), "TLS_KEY_FILE", certificates.serverKey.toString(), "TLS_CLIENT_CA_FILE", unreadable.toString())));
    }

    @Test
    void anExpiredCertificateStopsTheServicesStartInOneLine() throws Exception {
        Path expired = certificates.expired(dir.resolve("expired.crt"), certificates.serverKey, "IP:127.0.0.1");
        assertEquals("metahook: TLS_CERT_FILE " + expired + ": expired on 2025-01-02T00:00:00Z",
                serve(Map.of("TLS_CERT_FILE", expired.toString(), "TLS_KEY_FILE", certificates.serverKey.toString())));
    }

    /** The certificate served is valid, the intermediate a client needs to verify it is not: exit 2, one line that names it. */
    @Test
    void aChainWhoseIntermediateHasExpiredStopsTheServicesStartInOneLine() throws Exception {
        Certificates.Authority intermediate = certificates.intermediate(certificates.ca(), "metahook test intermediate",
                certificates.newKey(dir.resolve("intermediate.key")), Certificates.EXPIRED_FROM, Certificates.EXPIRED_ON);
        Path leaf = certificates.certificate(intermediate, dir.resolve("leaf.crt"), certificates.serverKey, Instant.now().minus(Duration.ofDays(1)),
                Instant.now().plus(Duration.ofDays(30)), "IP:127.0.0.1");
        Path chain = Certificates.chain(dir.resolve("chain.crt"), leaf, intermediate.cert());
        assertEquals("metahook: TLS_CERT_FILE " + chain + ": certificate 2 (CN=metahook test intermediate) expired on 2025-01-02T00:00:00Z",
                serve(Map.of("TLS_CERT_FILE", chain.toString(), "TLS_KEY_FILE", certificates.serverKey.toString())));
    }

    @Test
    void filesCheckMayNotReadAreUsageErrors() throws Exception {
        assertEquals("metahook: --token-file " + unreadable + ": permission denied", check("--url", "http://127.0.0.1:1", "--token-file", unreadable.toString()));
        assertEquals("metahook: --cacert " + unreadable + ": permission denied", check("--url", "https://127.0.0.1:1", "--cacert", unreadable.toString()));
        assertEquals("metahook: --key " + unreadable + ": permission denied", check("--url", "https://127.0.0.1:1",
                "--cert", certificates.clientCert.toString(), "--key", unreadable.toString()));
    }

    /** The one line the service prints when it stops at start with exit code 2. */
    private static String serve(Map<String, String> environment) throws Exception {
        Map<String, String> all = new java.util.HashMap<>(Map.of("HOST", "127.0.0.1", "PORT", "0"));
        all.putAll(environment);
        return oneLine(List.of(), all);
    }

    private static String check(String... options) throws Exception {
        List<String> args = new ArrayList<>(List.of("check", "--controller", "metacontroller/webapp-controller.yaml", "--parent", "examples/webapp.yaml"));
        args.addAll(List.of(options));
        return oneLine(args, Map.of());
    }

    /** Runs the command line as a user who may not read a file of mode 000; its one line of error, after checking it exited 2. */
    private static String oneLine(List<String> args, Map<String, String> environment) throws Exception {
        List<String> command = new ArrayList<>();
        if ("root".equals(System.getProperty("user.name"))) {
            command.addAll(List.of("setpriv", "--bounding-set", "-dac_override,-dac_read_search", "--inh-caps", "-all"));
        }
        command.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", System.getProperty("java.class.path"),
                Main.class.getName()));
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().putAll(environment);
        Path output = Files.createTempFile(dir, "output", ".txt");
        Process process = builder.redirectErrorStream(true).redirectOutput(output.toFile()).start();
        try {
            assertTrue(process.waitFor(120, TimeUnit.SECONDS), "the process exits");
            List<String> lines = Files.readAllLines(output, StandardCharsets.UTF_8).stream()
                    .filter(line -> !line.contains(" INFO  ") && !line.contains("WARN") && !line.isBlank()).toList();
            assertEquals(2, process.exitValue(), String.join("\n", lines));
            assertEquals(1, lines.size(), String.join("\n", lines));
            return lines.get(0);
        } finally {
            process.destroyForcibly();
        }
    }
}
