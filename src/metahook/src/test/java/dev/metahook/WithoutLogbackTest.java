package dev.metahook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.metahook.api.Controllers;
import dev.metahook.testing.Requests;
import dev.metahook.testing.ServiceProcess;
import dev.metahook.testing.Widget;
import dev.metahook.testing.WidgetController;
import java.io.File;
import java.net.http.HttpResponse;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * An application on another SLF4J backend excludes Logback from the metahook dependency: its service
 * still starts and answers, as a real process whose class path has no Logback.
 */
class WithoutLogbackTest {
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
        ServiceProcess service = ServiceProcess.start(withoutLogback, Service.class, Map.of("LOG_FORMAT", "json"));
        String output;
        try {
            HttpResponse<String> sync = service.post("/widget/sync",
                    Requests.bytes(Requests.sync(Requests.widget("hello", 3, "hi"), List.of(), false)));
            assertEquals(200, sync.statusCode(), sync.body());
        } finally {
            output = service.stop();
        }
        assertTrue(output.contains("No SLF4J providers were found"), output);
        assertFalse(output.contains("ch.qos.logback") || output.contains("NoClassDefFoundError"), output);
    }
}
