package dev.metahook.internal.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.api.CompositeController;
import dev.metahook.api.Controllers;
import dev.metahook.api.Result;
import dev.metahook.internal.wire.Json;
import dev.metahook.testing.Requests;
import dev.metahook.testing.TestServer;
import dev.metahook.testing.Widget;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * An answer the guards refuse is one WARN line that names the first violations and how many more: an answer that drops
 * hundreds of observed children wrote every one (100 KB for 400), where the problem body Metacontroller gets names 50.
 */
class RefusedAnswerLogTest {
    private static final int CHILDREN = 400;
    private static final HookEngine ENGINE = new HookEngine(Controllers.builder()
            .composite("dropping", Widget.class, (CompositeController<Widget, Map<String, Object>>) (widget, context) ->
                    Result.<Map<String, Object>>of().withStatus(Map.of()))
            .build(), TestServer.CLOCK);

    private final ListAppender<ILoggingEvent> lines = new ListAppender<>();

    @BeforeEach
    void listen() {
        lines.start();
        logger().addAppender(lines);
    }

    @AfterEach
    void stopListening() {
        logger().detachAppender(lines);
    }

    private static Logger logger() {
        return (Logger) LoggerFactory.getLogger(HookEngine.class);
    }

    @Test
    void anAnswerDroppingHundredsOfChildrenIsOneShortLine() {
        List<ObjectNode> children = new ArrayList<>();
        for (int i = 0; i < CHILDREN; i++) {
            children.add(Requests.observedConfigMap(String.format("cm-%03d", i), 3, "hi"));
        }
        HookAnswer answer = ENGINE.handle("dropping", "sync", Requests.bytes(Requests.sync(Requests.widget("many", 3, "hi"), children, false)));

        assertEquals(500, answer.status());
        JsonNode problem = Json.parse(answer.body());
        assertEquals(51, problem.path("violations").size(), problem.toString());
        assertEquals("... and " + (CHILDREN - 50) + " more", problem.path("violations").path(50).asText());
        List<ILoggingEvent> warnings = lines.list.stream().filter(line -> line.getFormattedMessage().contains("response refused")).toList();
        assertEquals(1, warnings.size());
        String line = warnings.get(0).getFormattedMessage();
        assertTrue(line.contains("default/cm-000") && line.contains("default/cm-002"), line);
        assertFalse(line.contains("default/cm-003"), line);
        assertTrue(line.endsWith("; ... and " + (CHILDREN - HookEngine.VIOLATIONS_LOGGED) + " more"), line);
        assertTrue(line.length() < 1_500, line.length() + " characters");
    }

    @Test
    void aFewViolationsAreLoggedWhole() {
        assertEquals("deletes-children: a; deletes-children: b", HookEngine.logged(List.of("deletes-children: a", "deletes-children: b")));
    }
}
