package dev.metahook.internal.server;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.LogRecord;
import java.util.logging.SimpleFormatter;
import org.slf4j.bridge.SLF4JBridgeHandler;

/**
 * What the OpenTelemetry SDK logs, as one line each in the service's log: no stack trace (the exception
 * is named in the line), at most {@value #MAX_LENGTH} characters, and at most one line a minute per
 * cause (the SDK logger and the exception's type). A caller can make the SDK warn at will (a malformed
 * header), so what it logs must cost a bounded amount whatever the caller sends.
 */
final class SdkLog extends SLF4JBridgeHandler {
    static final Duration PER_CAUSE = Duration.ofMinutes(1);
    static final int MAX_LENGTH = 300;

    private final Map<String, Long> lastByCause = new ConcurrentHashMap<>();
    private final SimpleFormatter formatter = new SimpleFormatter();

    @Override
    public void publish(LogRecord record) {
        if (record == null || !firstInAWhile(cause(record))) {
            return;
        }
        String text = formatter.formatMessage(record) + (record.getThrown() == null ? "" : " (" + record.getThrown() + ")");
        record.setMessage(text.length() > MAX_LENGTH ? text.substring(0, MAX_LENGTH) + "..." : text);
        record.setParameters(null);
        record.setThrown(null);
        super.publish(record);
    }

    private static String cause(LogRecord record) {
        return record.getLoggerName() + " " + (record.getThrown() == null ? "" : record.getThrown().getClass().getName());
    }

    private boolean firstInAWhile(String cause) {
        long now = System.nanoTime();
        boolean[] first = {false};
        lastByCause.compute(cause, (key, last) -> {
            first[0] = last == null || now - last >= PER_CAUSE.toNanos();
            return first[0] ? now : last;
        });
        return first[0];
    }
}
