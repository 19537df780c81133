package dev.metahook.internal.sim;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahook.internal.wire.Json;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.Map;

/**
 * What of a long answer or object a breach quotes: never a sentence cut in the middle. A problem+json body is
 * its title and detail, whole; other text ends at the end of a sentence (and says how much more there was);
 * JSON ends after a whole field or item.
 */
final class Excerpt {
    static final int TEXT = 300;
    private static final int SENTENCE_AT_MOST = 1000;
    static final int JSON = 160;

    private Excerpt() {
    }

    /** An answer's body: a problem's title and detail, or its text as {@link #text(String)} gives it. */
    static String body(byte[] body) {
        String text = new String(body, StandardCharsets.UTF_8);
        try {
            JsonNode problem = Json.parse(body);
            if (problem.isObject() && problem.path("detail").isTextual()) {
                String title = problem.path("title").asText("");
                return (title.isEmpty() ? "" : title + ": ") + problem.get("detail").asText();
            }
        } catch (RuntimeException notJson) {
            // plain text, quoted below
        }
        return text(text);
    }

    /**
     * The text whole when short; else up to the end of its last sentence within {@value #TEXT} characters (or of
     * its first sentence, when that ends within {@value #SENTENCE_AT_MOST}), saying how many characters follow.
     * Text without a sentence end that soon ends at a word, marked as cut.
     */
    static String text(String text) {
        if (text.length() <= TEXT) {
            return text;
        }
        int end = lastSentenceEnd(text, TEXT);
        if (end < 0) {
            end = firstSentenceEnd(text, TEXT, Math.min(text.length(), SENTENCE_AT_MOST));
        }
        if (end < 0) {
            int space = text.lastIndexOf(' ', TEXT);
            end = space > 0 ? space : TEXT;
            return text.substring(0, end) + " … (cut: " + (text.length() - end) + " more characters)";
        }
        return end >= text.length() ? text : text.substring(0, end) + " (" + (text.length() - end) + " more characters)";
    }

    /** JSON whole when short; else whole fields (or items) while they fit, the first always, then how many are left out. */
    static String json(JsonNode node) {
        String whole = node.isMissingNode() ? "absent" : node.toString();
        if (whole.length() <= JSON || !(node.isObject() || node.isArray())) {
            return whole;
        }
        StringBuilder shown = new StringBuilder(node.isObject() ? "{" : "[");
        int count = 0;
        int total = node.size();
        Iterator<Map.Entry<String, JsonNode>> fields = node.properties().iterator();
        Iterator<JsonNode> items = node.elements();
        while (count < total) {
            String part = node.isObject() ? fieldText(fields.next()) : items.next().toString();
            if (count > 0 && shown.length() + part.length() > JSON) {
                break;
            }
            shown.append(count > 0 ? "," : "").append(part);
            count++;
        }
        if (count < total) {
            shown.append(", … ").append(total - count).append(node.isObject() ? " more fields" : " more items");
        }
        return shown.append(node.isObject() ? "}" : "]").toString();
    }

    private static String fieldText(Map.Entry<String, JsonNode> field) {
        return Json.mapper().getNodeFactory().textNode(field.getKey()).toString() + ":" + field.getValue().toString();
    }

    private static int lastSentenceEnd(String text, int limit) {
        for (int i = Math.min(limit, text.length()) - 1; i > 0; i--) {
            if (endsSentence(text, i)) {
                return i + 1;
            }
        }
        return -1;
    }

    private static int firstSentenceEnd(String text, int from, int limit) {
        for (int i = from; i < limit; i++) {
            if (endsSentence(text, i)) {
                return i + 1;
            }
        }
        return limit == text.length() ? text.length() : -1;
    }

    private static boolean endsSentence(String text, int i) {
        char c = text.charAt(i);
        return (c == '.' || c == '!' || c == '?' || c == '\n') && (i + 1 == text.length() || Character.isWhitespace(text.charAt(i + 1)));
    }
}
