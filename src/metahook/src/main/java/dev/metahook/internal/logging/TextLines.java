package dev.metahook.internal.logging;

import ch.qos.logback.classic.PatternLayout;
import ch.qos.logback.classic.pattern.ClassicConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Context;
import ch.qos.logback.core.encoder.LayoutWrappingEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.slf4j.event.KeyValuePair;

/**
 * The text format's encoder: {@link LogConfiguration#TEXT_PATTERN} with its message ({@code %msg}), key-value
 * pairs ({@code %kvp}) and MDC ({@code %X}) escaped, so one event is one line whatever a caller put in a path or
 * a parent's name: CR, LF, tab, ESC and every other control character (C0, DEL, C1, U+2028 and U+2029) are
 * written as {@code \n}, {@code \r}, {@code \t} or {@code \\uXXXX}, a backslash as two; inside a pair's quoted
 * value a quote is escaped too. A stack trace, when an event carries one, still follows on lines of its own.
 */
final class TextLines {
    private TextLines() {
    }

    static LayoutWrappingEncoder<ILoggingEvent> encoder(Context context, String pattern) {
        PatternLayout layout = new PatternLayout();
        layout.setContext(context);
        Map<String, java.util.function.Supplier<ch.qos.logback.core.pattern.DynamicConverter>> converters = layout.getInstanceConverterMap();
        converters.put("msg", Message::new);
        converters.put("m", Message::new);
        converters.put("message", Message::new);
        converters.put("kvp", Pairs::new);
        converters.put("X", Mdc::new);
        converters.put("mdc", Mdc::new);
        layout.setPattern(pattern);
        layout.start();
        LayoutWrappingEncoder<ILoggingEvent> encoder = new LayoutWrappingEncoder<>();
        encoder.setContext(context);
        encoder.setCharset(StandardCharsets.UTF_8);
        encoder.setLayout(layout);
        encoder.start();
        return encoder;
    }

    /** {@code text} with every control character and backslash escaped (so an escape always reads one way); also quotes when {@code quoted}. */
    static String escape(String text, boolean quoted) {
        if (text == null) {
            return "null";
        }
        int i = 0;
        while (i < text.length() && !needsEscape(text.charAt(i), quoted)) {
            i++;
        }
        if (i == text.length()) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length() + 16).append(text, 0, i);
        for (; i < text.length(); i++) {
            char c = text.charAt(i);
            if (!needsEscape(c, quoted)) {
                out.append(c);
            } else if (c == '\n') {
                out.append("\\n");
            } else if (c == '\r') {
                out.append("\\r");
            } else if (c == '\t') {
                out.append("\\t");
            } else if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else {
                out.append(String.format("\\u%04x", (int) c));
            }
        }
        return out.toString();
    }

    private static boolean needsEscape(char c, boolean quoted) {
        return c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == '\u2028' || c == '\u2029' || c == '\\' || (quoted && c == '"');
    }

    /** {@code %msg}: the formatted message, escaped. */
    static final class Message extends ClassicConverter {
        @Override
        public String convert(ILoggingEvent event) {
            return escape(event.getFormattedMessage(), false);
        }
    }

    /** {@code %kvp}: {@code key="value"} pairs separated by spaces, as Logback writes them, escaped. */
    static final class Pairs extends ClassicConverter {
        @Override
        public String convert(ILoggingEvent event) {
            List<KeyValuePair> pairs = event.getKeyValuePairs();
            if (pairs == null || pairs.isEmpty()) {
                return "";
            }
            StringBuilder out = new StringBuilder();
            for (KeyValuePair pair : pairs) {
                if (out.length() > 0) {
                    out.append(' ');
                }
                out.append(escape(pair.key, true)).append("=\"").append(escape(String.valueOf(pair.value), true)).append('"');
            }
            return out.toString();
        }
    }

    /**
     * {@code %X}: the MDC as {@code key=value, key=value}, as Logback writes it, escaped ({@code %X{key}}: that value), with
     * the current span's ids ({@link SpanIds}).
     */
    static final class Mdc extends ClassicConverter {
        private String key;

        @Override
        public void start() {
            key = getFirstOption();
            super.start();
        }

        @Override
        public String convert(ILoggingEvent event) {
            Map<String, String> mdc = SpanIds.mdc(event);
            if (key != null) {
                String value = mdc.get(key);
                return value == null ? "" : escape(value, false);
            }
            StringBuilder out = new StringBuilder();
            for (Iterator<Map.Entry<String, String>> entries = mdc.entrySet().iterator(); entries.hasNext(); ) {
                Map.Entry<String, String> entry = entries.next();
                out.append(escape(entry.getKey(), false)).append('=').append(escape(entry.getValue(), false));
                if (entries.hasNext()) {
                    out.append(", ");
                }
            }
            return out.toString();
        }
    }
}
