package dev.metahook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahook.api.CompositeController;
import dev.metahook.api.Controllers;
import dev.metahook.api.Result;
import dev.metahook.testing.Requests;
import dev.metahook.testing.ServiceProcess;
import dev.metahook.testing.Widget;
import dev.metahook.internal.wire.Json;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A user's own service, built with {@code Metahook.serve} and started as a process with
 * {@code LOG_FORMAT=json}: a line its controller logs during a call is one JSON object carrying the
 * call's controller, hook, parent and generation, as the built-in service's lines do.
 */
class UserServiceLogTest {
    /** The user's service, started in the child process; its controller logs one line per sync. */
    public static final class Service {
        private static final Logger LOG = LoggerFactory.getLogger(Service.class);

        private Service() {
        }

        public static void main(String[] args) {
            Metahook.serve(Controllers.builder().composite("greeter", Widget.class,
                    (CompositeController<Widget, Map<String, Object>>) (widget, context) -> {
                        LOG.info("greeting {}", widget.getSpec().message);
                        return Result.<Map<String, Object>>of().withStatus(Map.of("greeted", true));
                    }).build());
        }
    }

    @Test
    void aLineTheControllerLogsIsJsonWithTheCallsFields() throws Exception {
        ServiceProcess service = ServiceProcess.start(System.getProperty("java.class.path"), Service.class, Map.of("LOG_FORMAT", "json"));
        String written;
        try {
            HttpResponse<String> sync = service.post("/greeter/sync",
                    Requests.bytes(Requests.sync(Requests.widget("hello", 3, "hi there"), List.of(), false)));
            assertEquals(200, sync.statusCode(), sync.body());
        } finally {
            written = service.stop();
        }
        String output = written;
        JsonNode line = output.lines().filter(text -> text.contains("greeting hi there")).findFirst()
                .map(text -> Json.parse(text.getBytes(StandardCharsets.UTF_8)))
                .orElseThrow(() -> new AssertionError("the controller's line is not in the output:\n" + output));
        assertEquals(Service.class.getName(), line.path("logger_name").asText(), line.toString());
        assertEquals("INFO", line.path("level").asText(), line.toString());
        assertEquals("greeter", line.path("controller").asText(), line.toString());
        assertEquals("sync", line.path("hook").asText(), line.toString());
        assertEquals("default/hello", line.path("parent").asText(), line.toString());
        assertEquals("2", line.path("generation").asText(), line.toString());
    }
}
