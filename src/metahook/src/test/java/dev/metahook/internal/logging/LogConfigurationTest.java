package dev.metahook.internal.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator.ExecutionStatus;
import com.fasterxml.jackson.databind.JsonNode;
import dev.metahook.internal.wire.Json;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.MDC;

/**
 * The logging a service of one's own gets from the library: the built-in service's, with the MDC of a
 * controller call in every line, unless the application brought a configuration of its own.
 */
class LogConfigurationTest {

    @Test
    void anApplicationsLogbackXmlWinsAndTheFallbackStepsAside(@TempDir Path classes) throws Exception {
        Files.writeString(classes.resolve("logback.xml"), "<configuration/>");
        LoggerContext context = new LoggerContext();
        ClassLoader before = Thread.currentThread().getContextClassLoader();
        try (URLClassLoader application = new URLClassLoader(new URL[] {classes.toUri().toURL()}, null)) {
            Thread.currentThread().setContextClassLoader(application);
            assertEquals(ExecutionStatus.INVOKE_NEXT_IF_ANY, new LogConfiguration().configure(context));
        } finally {
            Thread.currentThread().setContextClassLoader(before);
        }
        assertFalse(context.getLogger(Logger.ROOT_LOGGER_NAME).iteratorForAppenders().hasNext(), "no appender of ours");
    }

    @Test
    void withoutAConfigurationOfItsOwnTheApplicationGetsTheServices(@TempDir Path classes) throws Exception {
        Files.writeString(classes.resolve("logback-test.xml"), "<configuration/>");
        try (URLClassLoader bare = new URLClassLoader(new URL[0], null);
             URLClassLoader withTestFile = new URLClassLoader(new URL[] {classes.toUri().toURL()}, null)) {
            assertFalse(LogConfiguration.applicationConfigured(bare));
            assertTrue(LogConfiguration.applicationConfigured(withTestFile));
        }
    }

    @Test
    void jsonLinesCarryTheCallsMdc() {
        String written = stderrOf(Map.of("LOG_FORMAT", "json", "LOG_LEVEL", "INFO"), logger -> {
            MDC.put("controller", "greeting");
            MDC.put("parent", "default/hi");
            try {
                logger.info("made the ConfigMap");
            } finally {
                MDC.remove("controller");
                MDC.remove("parent");
            }
            logger.debug("below the level");
        });
        String[] lines = written.split("\n");
        assertEquals(1, lines.length, written);
        JsonNode line = Json.parse(lines[0].getBytes(StandardCharsets.UTF_8));
        assertEquals("made the ConfigMap", line.path("message").asText());
        assertEquals("greeting", line.path("controller").asText(), written);
        assertEquals("default/hi", line.path("parent").asText());
        assertEquals("INFO", line.path("level").asText());
    }

    @Test
    void textLinesCarryItTooAndNothingExtraWithoutIt() {
        String written = stderrOf(Map.of(), logger -> {
            logger.info("plain");
            MDC.put("controller", "greeting");
            try {
                logger.info("in a call");
            } finally {
                MDC.remove("controller");
            }
        });
        String[] lines = written.split("\n");
        assertTrue(lines[0].endsWith(" - plain "), lines[0]);
        assertTrue(lines[1].endsWith(" - in a call  controller=greeting"), lines[1]);
    }

    /** L3 of issue 36: whatever a caller puts in a message, a pair or the MDC stays on the event's one line, in both formats. */
    @Test
    void controlCharactersAndQuotesAreEscapedInBothFormats() {
        String forged = "p\n2099-01-01T00:00:00.000Z ERROR FAKE\r\"\\" + "\u0000\u001b[31m\u007f\u0085\u2028\u2029\tend";
        for (Map<String, String> env : List.of(Map.<String, String>of(), Map.of("LOG_FORMAT", "json"))) {
            String written = stderrOf(env, logger -> {
                MDC.put("parent", forged);
                try {
                    logger.atInfo().addKeyValue("parent", forged).log("made {}", forged);
                } finally {
                    MDC.remove("parent");
                }
            });
            assertTrue(written.endsWith("\n"), written);
            String line = written.substring(0, written.length() - 1);
            assertEquals(-1, line.indexOf('\n'), written);
            for (char raw : new char[] {'\r', '\u0000', '\u001b', '\u007f', '\u0085', '\u2028', '\u2029', '\t'}) {
                assertEquals(-1, line.indexOf(raw), env + ": no raw " + (int) raw + " in " + line);
            }
            if (env.isEmpty()) {
                assertTrue(line.contains(" parent=\"p\\n2099-01-01T00:00:00.000Z ERROR FAKE\\r\\\"\\\\" + "\\u0000\\u001b[31m\\u007f\\u0085\\u2028\\u2029\\tend\""), line);
                assertTrue(line.contains(" - made p\\n2099-01-01T00:00:00.000Z ERROR FAKE\\r\"\\\\" + "\\u0000"), line);
                assertTrue(line.endsWith("end\" parent=p\\n2099-01-01T00:00:00.000Z ERROR FAKE\\r\"\\\\" + "\\u0000\\u001b[31m\\u007f\\u0085\\u2028\\u2029\\tend"), line);
            } else {
                JsonNode json = Json.parse(line.getBytes(StandardCharsets.UTF_8));
                assertEquals(forged, json.path("parent").asText());
                assertEquals("made " + forged, json.path("message").asText());
            }
        }
    }

    /** What a fresh context configured for this environment writes to standard error while {@code logging} runs. */
    private static String stderrOf(Map<String, String> env, Consumer<Logger> logging) {
        PrintStream before = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        LoggerContext context = new LoggerContext();
        context.setMDCAdapter(MDC.getMDCAdapter());
        try {
            LogConfiguration.configure(context, env);
            logging.accept(context.getLogger("example.GreetingController"));
        } finally {
            context.stop();
            System.setErr(before);
        }
        return captured.toString(StandardCharsets.UTF_8);
    }
}
