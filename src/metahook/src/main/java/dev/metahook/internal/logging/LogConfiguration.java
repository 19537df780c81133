package dev.metahook.internal.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ConfiguratorRank;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.encoder.Encoder;
import ch.qos.logback.core.spi.ContextAwareBase;
import java.util.Map;

/**
 * The service's logging, set up in code: {@code LOG_FORMAT=json} (the container's default) writes one
 * JSON object per line, anything else (the default for local runs) one text line; {@code LOG_LEVEL}
 * (INFO unless set) is the root level; Jetty and Javalin speak only from WARN. Both go to standard
 * error, with the MDC a controller call carries (controller, hook, parent, generation, and the current span's
 * {@code trace_id} and {@code span_id} when tracing is on); every value escaped
 * in both formats, so one event is one line ({@link TextLines}). Set up in code
 * rather than from an XML file because parsing the file cost a fifth of the time to ready, and only
 * the chosen format's encoder is built.
 *
 * <p>Registered for Logback's service loader in the library, so a service of one's own
 * ({@code Metahook.serve}) logs as the built-in one does, but only as the fallback: an application
 * that brings a {@code logback-test.xml} or {@code logback.xml} on its class path, names a file in
 * {@code -Dlogback.configurationFile}, or registers a Configurator of its own (Logback runs those
 * first) keeps its configuration. Without Logback (another SLF4J backend) this class is never loaded.
 */
@ConfiguratorRank(ConfiguratorRank.NOMINAL)
public final class LogConfiguration extends ContextAwareBase implements Configurator {
    static final String TEXT_PATTERN = "%d{yyyy-MM-dd'T'HH:mm:ss.SSSX, UTC} %-5level %logger{0} - %msg %kvp%replace( %X){'^ $', ''}%n";
    private static final String[] APPLICATION_FILES = {"logback-test.xml", "logback.xml"};

    @Override
    public ExecutionStatus configure(LoggerContext context) {
        if (applicationConfigured(Thread.currentThread().getContextClassLoader())) {
            return ExecutionStatus.INVOKE_NEXT_IF_ANY;
        }
        configure(context, System.getenv());
        return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
    }

    /** Whether the application brought a configuration file Logback's own configurator reads. */
    static boolean applicationConfigured(ClassLoader loader) {
        if (System.getProperty("logback.configurationFile") != null) {
            return true;
        }
        ClassLoader classes = loader != null ? loader : LogConfiguration.class.getClassLoader();
        for (String file : APPLICATION_FILES) {
            if (classes.getResource(file) != null) {
                return true;
            }
        }
        return false;
    }

    static void configure(LoggerContext context, Map<String, String> env) {
        ConsoleAppender<ILoggingEvent> console = new ConsoleAppender<>();
        console.setContext(context);
        console.setName("console");
        console.setTarget("System.err");
        console.setEncoder("json".equals(env.get("LOG_FORMAT")) ? json(context) : text(context));
        console.start();
        Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.toLevel(env.get("LOG_LEVEL"), Level.INFO));
        root.addAppender(console);
        context.getLogger("org.eclipse.jetty").setLevel(Level.WARN);
        context.getLogger("io.javalin").setLevel(Level.WARN);
        // one line per generated CRD on the manifests command's output: what it wrote says enough
        context.getLogger("io.fabric8.crdv2").setLevel(Level.WARN);
    }

    private static Encoder<ILoggingEvent> text(LoggerContext context) {
        return TextLines.encoder(context, TEXT_PATTERN);
    }

    private static Encoder<ILoggingEvent> json(LoggerContext context) {
        JsonLines encoder = new JsonLines();
        encoder.setContext(context);
        encoder.start();
        return encoder;
    }
}
