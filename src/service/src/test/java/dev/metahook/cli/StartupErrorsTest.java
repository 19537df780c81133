package dev.metahook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A setting or a file the service cannot use stops it at start: one line naming it, exit code 2, no stack trace. */
class StartupErrorsTest {
    @TempDir
    static Path dir;

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource({
            "AUTH_BEARER_TOKEN_FILE, missing-file, metahook: AUTH_BEARER_TOKEN_FILE",
            "AUTH_BEARER_TOKEN_FILE, empty-file, metahook: AUTH_BEARER_TOKEN_FILE",
            "TLS_CERT_FILE, empty-file, metahook: TLS_CERT_FILE",
            "MAX_BODY_SIZE, 2Gi, metahook: MAX_BODY_SIZE must be between 1 and 1Gi",
            "OTEL_TRACES_EXPORTER, zipkin, metahook: OpenTelemetry (OTEL_* variables): Unrecognized value for otel.traces.exporter: zipkin",
    })
    void aBadSettingIsOneLineAndExitCode2(String variable, String value, String message) throws Exception {
        Path empty = Files.writeString(dir.resolve("empty"), "");
        String setting = switch (value) {
            case "missing-file" -> dir.resolve("missing").toString();
            case "empty-file" -> empty.toString();
            default -> value;
        };
        Map<String, String> environment = new HashMap<>(Map.of(variable, setting));
        if (variable.equals("TLS_CERT_FILE")) {
            environment.put("TLS_KEY_FILE", setting);
        }
        String line = errorLine(environment, "output-" + variable + "-" + value);
        assertTrue(line.startsWith(message), line);
    }

    /** A Service named management in the pod's namespace sets MANAGEMENT_PORT=tcp://IP:PORT, unless the pod spec turns service links off. */
    @Test
    void aServiceLinkInAPortVariableNamesTheServiceThatSetIt() throws Exception {
        assertEquals("metahook: MANAGEMENT_PORT is 'tcp://10.0.0.7:8081', a service link: Kubernetes sets it in every pod of a namespace"
                + " that has a Service named management; set enableServiceLinks: false in the pod spec",
                errorLine(Map.of("MANAGEMENT_PORT", "tcp://10.0.0.7:8081"), "output-service-link"));
    }

    /** The one line the service prints, other than its log, when it starts with these variables; it must exit 2. */
    private static String errorLine(Map<String, String> variables, String name) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder builder = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), Main.class.getName());
        builder.environment().putAll(Map.of("HOST", "127.0.0.1", "PORT", "0"));
        builder.environment().putAll(variables);
        Path output = dir.resolve(name);
        Process process = builder.redirectErrorStream(true).redirectOutput(output.toFile()).start();
        try {
            assertTrue(process.waitFor(120, TimeUnit.SECONDS), "the process exits");
            List<String> lines = Files.readAllLines(output, StandardCharsets.UTF_8).stream()
                    .filter(line -> !isLogLine(line) && !line.isBlank()).toList();
            assertEquals(2, process.exitValue(), String.join("\n", lines));
            assertEquals(1, lines.size(), String.join("\n", lines));
            return lines.get(0);
        } finally {
            process.destroyForcibly();
        }
    }

    /** A line of the service's log (INFO or WARN, as it starts): the error itself is a line of its own, unlevelled. */
    private static boolean isLogLine(String line) {
        return line.contains(" INFO  ") || line.contains("WARN");
    }
}
