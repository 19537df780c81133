package dev.metahook.internal.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.metahook.api.Cleaner;
import dev.metahook.api.Cleanup;
import dev.metahook.api.CompositeController;
import dev.metahook.api.Context;
import dev.metahook.api.Controllers;
import dev.metahook.api.Result;
import dev.metahook.testing.Requests;
import dev.metahook.testing.TestServer;
import dev.metahook.testing.Widget;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/** A line a controller logs during a call says which controller, hook, parent and generation it was about. */
class CallMdcTest {
    private static final org.slf4j.Logger CONTROLLER_LOG = LoggerFactory.getLogger("example.GreetingController");

    private final ListAppender<ILoggingEvent> lines = new ListAppender<>();

    /** Logs one line in sync and one in cleanup, like a user's controller would; a message of {@code boom} throws. */
    private static final class Logging implements CompositeController<Widget, Map<String, Object>>, Cleaner<Widget, Map<String, Object>> {
        @Override
        public Result<Map<String, Object>> sync(Widget widget, Context context) {
            CONTROLLER_LOG.info("syncing");
            if ("boom".equals(widget.getSpec().message)) {
                throw new IllegalStateException("boom");
            }
            return Result.<Map<String, Object>>keepingObserved();
        }

        @Override
        public Cleanup<Map<String, Object>> cleanup(Widget widget, Context context) {
            CONTROLLER_LOG.info("cleaning up");
            return Cleanup.done();
        }
    }

    private static final HookEngine ENGINE = new HookEngine(Controllers.builder()
            .composite("logging", Widget.class, new Logging()).build(), TestServer.CLOCK);

    @BeforeEach
    void listen() {
        lines.start();
        logger("example.GreetingController").addAppender(lines);
        logger(HookEngine.class.getName()).addAppender(lines);
    }

    @AfterEach
    void stopListening() {
        logger("example.GreetingController").detachAppender(lines);
        logger(HookEngine.class.getName()).detachAppender(lines);
    }

    private static Logger logger(String name) {
        return (Logger) LoggerFactory.getLogger(name);
    }

    private static byte[] request(String message, boolean finalizing) {
        return Requests.bytes(Requests.sync(Requests.widget("hello", 3, message), List.of(), finalizing));
    }

    @Test
    void aSyncLineCarriesTheControllerTheHookTheParentAndItsGeneration() {
        assertEquals(200, ENGINE.handle("logging", "sync", request("hi", false)).status());
        ILoggingEvent line = lines.list.get(0);
        assertEquals("syncing", line.getMessage());
        assertEquals(Map.of("controller", "logging", "hook", "sync", "parent", "default/hello", "generation", "2"),
                line.getMDCPropertyMap());
    }

    @Test
    void aFinalizeLineSaysFinalize() {
        assertEquals(200, ENGINE.handle("logging", "finalize", request("hi", true)).status());
        assertEquals("cleaning up", lines.list.get(0).getMessage());
        assertEquals("finalize", lines.list.get(0).getMDCPropertyMap().get("hook"));
    }

    @Test
    void theEnginesLineAboutAFailedCallCarriesItToo() {
        assertEquals(500, ENGINE.handle("logging", "sync", request("boom", false)).status());
        ILoggingEvent failure = lines.list.get(1);
        assertEquals("default/hello", failure.getMDCPropertyMap().get("parent"), failure.getFormattedMessage());
    }

    @Test
    void theMdcIsClearedAfterTheCallAndKeepsWhatTheThreadHadBefore() {
        MDC.put("request", "r-1");
        try {
            ENGINE.handle("logging", "sync", request("hi", false));
            assertNull(MDC.get("controller"));
            assertNull(MDC.get("parent"));
            assertNull(MDC.get("generation"));
            assertEquals("r-1", MDC.get("request"));
        } finally {
            MDC.remove("request");
        }
    }
}
