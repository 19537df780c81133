package dev.metahook.internal.logging;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.encoder.EncoderBase;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.io.SerializedString;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.util.Map;
import org.slf4j.event.KeyValuePair;

/**
 * {@code LOG_FORMAT=json}: one JSON object per event and line, {@code @timestamp} (UTC), {@code message},
 * {@code logger_name}, {@code level}, then the MDC's entries (strings; {@code trace_id} and {@code span_id} of the
 * span current where the line was logged: {@link SpanIds}), the event's key-value pairs (numbers and
 * booleans as such) and {@code stack_trace} when it carries one: the fields log pipelines read from the Logstash
 * layout. Written with Jackson, which the service carries anyway, so every value is escaped (a newline or an escape
 * character in a parent's name stays inside its string; so are DEL, C1 controls and U+2028/U+2029, which some
 * viewers take for line breaks) and no JSON-encoder library is on a user's class path.
 */
final class JsonLines extends EncoderBase<ILoggingEvent> {
    private static final JsonFactory JSON = new JsonFactory().setCharacterEscapes(new LineSafe());
    private static final byte[] NOTHING = new byte[0];

    @Override
    public byte[] headerBytes() {
        return NOTHING;
    }

    @Override
    public byte[] footerBytes() {
        return NOTHING;
    }

    @Override
    public byte[] encode(ILoggingEvent event) {
        ByteArrayOutputStream line = new ByteArrayOutputStream(256);
        try (JsonGenerator json = JSON.createGenerator(line)) {
            json.writeStartObject();
            json.writeStringField("@timestamp", Instant.ofEpochMilli(event.getTimeStamp())
                    .plusNanos(event.getNanoseconds() < 0 ? 0 : event.getNanoseconds() % 1_000_000).toString());
            json.writeStringField("message", event.getFormattedMessage());
            json.writeStringField("logger_name", event.getLoggerName());
            json.writeStringField("level", event.getLevel().toString());
            for (Map.Entry<String, String> entry : SpanIds.mdc(event).entrySet()) {
                json.writeStringField(entry.getKey(), entry.getValue());
            }
            if (event.getKeyValuePairs() != null) {
                for (KeyValuePair pair : event.getKeyValuePairs()) {
                    json.writeFieldName(pair.key);
                    value(json, pair.value);
                }
            }
            IThrowableProxy thrown = event.getThrowableProxy();
            if (thrown != null) {
                json.writeStringField("stack_trace", ThrowableProxyUtil.asString(thrown));
            }
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        line.write('\n');
        return line.toByteArray();
    }

    private static void value(JsonGenerator json, Object value) throws IOException {
        if (value == null) {
            json.writeNull();
        } else if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte) {
            json.writeNumber(((Number) value).longValue());
        } else if (value instanceof Double || value instanceof Float) {
            json.writeNumber(((Number) value).doubleValue());
        } else if (value instanceof BigDecimal decimal) {
            json.writeNumber(decimal);
        } else if (value instanceof BigInteger integer) {
            json.writeNumber(integer);
        } else if (value instanceof Boolean bool) {
            json.writeBoolean(bool);
        } else {
            json.writeString(value.toString());
        }
    }

    /** JSON's own escapes, and {@code \\uXXXX} for DEL, the C1 controls and the Unicode line and paragraph separators. */
    private static final class LineSafe extends CharacterEscapes {
        private static final int[] ASCII;

        static {
            ASCII = CharacterEscapes.standardAsciiEscapesForJSON();
            ASCII[0x7f] = CharacterEscapes.ESCAPE_STANDARD;
        }

        @Override
        public int[] getEscapeCodesForAscii() {
            return ASCII;
        }

        @Override
        public SerializableString getEscapeSequence(int ch) {
            if ((ch >= 0x80 && ch <= 0x9f) || ch == 0x2028 || ch == 0x2029) {
                return new SerializedString(String.format("\\u%04x", ch));
            }
            return null;
        }
    }
}
