package dev.metahook.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code src/e2e/control-plane sources}: the deb-src line comes from the Debian mirror the machine's
 * apt is configured with, whatever the format, and from nothing else. Each case is an apt
 * configuration of its own (APT_CONFIG) with the lists an apt-get update would have left.
 */
class ControlPlaneSourcesIT {

    private record Result(int exit, String output) {
    }

    @Test
    void takesTheMirrorFromAOneLineSourcesList(@TempDir Path dir) throws Exception {
        Path apt = apt(dir, "deb [arch=amd64] http://mirror.example.invalid/debian bookworm main contrib\n", null);
        fetched(apt, "mirror.example.invalid_debian", "bookworm", "Debian", "Debian");
        assertEquals(new Result(0, "deb-src http://mirror.example.invalid/debian/ bookworm main\n"), sources(apt));
    }

    @Test
    void takesTheMirrorFromADeb822SourcesFile(@TempDir Path dir) throws Exception {
        Path apt = apt(dir, "", """
                Types: deb
                URIs: https://other.example.invalid/debian/
                Suites: bookworm bookworm-updates
                Components: main
                Architectures: amd64
                Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
                """);
        fetched(apt, "other.example.invalid_debian", "bookworm-updates", "Debian", "Debian");
        assertEquals(new Result(0, "deb-src https://other.example.invalid/debian/ bookworm main\n"), sources(apt));
    }

    @Test
    void neverTakesTheSecurityArchiveOrAnotherOrigin(@TempDir Path dir) throws Exception {
        Path apt = apt(dir, "deb [arch=amd64] http://security.example.invalid/debian-security bookworm-security main\n"
                + "deb [arch=amd64] http://vendor.example.invalid/apt bookworm main\n", null);
        fetched(apt, "security.example.invalid_debian-security", "bookworm-security", "Debian", "Debian-Security");
        fetched(apt, "vendor.example.invalid_apt", "bookworm", "Vendor", "Vendor");
        Result result = sources(apt);
        assertEquals(1, result.exit(), result.output());
        assertTrue(result.output().contains("no configured apt source is Debian's main archive"), result.output());
    }

    /** A private apt configuration: this sources.list and, if given, one deb822 file. */
    private static Path apt(Path dir, String sourcesList, String deb822) throws IOException {
        Files.createDirectories(dir.resolve("lists/partial"));
        Files.createDirectories(dir.resolve("parts"));
        Files.writeString(dir.resolve("sources.list"), sourcesList);
        if (deb822 != null) {
            Files.writeString(dir.resolve("parts/debian.sources"), deb822);
        }
        Files.writeString(dir.resolve("apt.conf"), "Dir::Etc::SourceList \"" + dir.resolve("sources.list") + "\";\n"
                + "Dir::Etc::SourceParts \"" + dir.resolve("parts") + "\";\n"
                + "Dir::State::Lists \"" + dir.resolve("lists") + "\";\n");
        return dir;
    }

    /** What apt-get update leaves for a suite: its Release file and the main component's index. */
    private static void fetched(Path apt, String site, String suite, String origin, String label) throws IOException {
        Files.writeString(apt.resolve("lists/" + site + "_dists_" + suite + "_InRelease"),
                "Origin: " + origin + "\nLabel: " + label + "\nCodename: " + suite + "\nComponents: main\nArchitectures: amd64\n");
        Files.writeString(apt.resolve("lists/" + site + "_dists_" + suite + "_main_binary-amd64_Packages"), "");
    }

    private static Result sources(Path apt) throws Exception {
        ProcessBuilder builder = new ProcessBuilder("bash", "src/e2e/control-plane", "sources").redirectErrorStream(true);
        builder.environment().put("APT_CONFIG", apt.resolve("apt.conf").toString());
        Process process = builder.start();
        try {
            assertTrue(process.waitFor(60, TimeUnit.SECONDS));
            return new Result(process.exitValue(), new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        } finally {
            process.destroyForcibly();
        }
    }
}
