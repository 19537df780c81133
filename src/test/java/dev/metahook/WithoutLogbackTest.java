package dev.metahook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.metahook.api.Controllers;
import dev.metahook.testing.Readiness;
import dev.metahook.testing.Requests;
import dev.metahook.testing.Widget;
import dev.metahook.testing.WidgetController;
import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * An application on another SLF4J backend excludes Logback from the metahook dependency: its service
 * still starts and answers, as a real process whose class path has no Logback and no logstash encoder.
 */
class WithoutLogbackTest {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /** A service of one's own, started in the child process. */
    public static final class Service {
        private Service() {
        }

        public static void main(String[] args) {
            Metahook.serve(Controllers.builder().composite("widget", Widget.class, new WidgetController()).build());
        }
    }

    @Test
    void aServiceWithoutLogbackServes() throws Exception {
        List<String> entries = Arrays.asList(System.getProperty("java.class.path").split(File.pathSeparator));
        String withoutLogback = entries.stream().filter(entry -> !entry.contains("logback")).collect(Collectors.joining(File.pathSeparator));
        assertTrue(entries.stream().anyMatch(entry -> entry.contains("logback-classic")), "the test's class path has Logback to leave out");
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder builder = new ProcessBuilder(java, "-cp", withoutLogback, Service.class.getName());
        builder.environment().put("PORT", Integer.toString(port));
        builder.environment().put("HOST", "127.0.0.1");
        builder.environment().put("LOG_FORMAT", "json");
        Path log = Files.createTempFile("metahook-without-logback", ".txt");
        Process process = builder.redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            Readiness.await(port, process, () -> read(log));
            HttpResponse<String> sync = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/widget/sync"))
                    .POST(HttpRequest.BodyPublishers.ofByteArray(Requests.bytes(Requests.sync(Requests.widget("hello", 3, "hi"),
                            List.of(), false))))
                    .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, sync.statusCode(), sync.body());
        } finally {
            process.destroy();
            assertTrue(process.waitFor(60, TimeUnit.SECONDS));
        }
        String output = Files.readString(log);
        Files.delete(log);
        assertTrue(output.contains("No SLF4J providers were found"), output);
        assertFalse(output.contains("ch.qos.logback") || output.contains("NoClassDefFoundError"), output);
    }

    private static String read(Path log) {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return e.toString();
        }
    }
}
