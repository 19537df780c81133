package dev.metahook.internal.engine;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.internal.wire.CanonicalJson;
import dev.metahook.internal.wire.Json;
import java.util.ArrayList;
import java.util.List;

/**
 * An RFC 9457 problem document: what went wrong, for a person reading Metacontroller's event or a
 * curl user. {@code pointer} names the request field at fault; {@code violations} lists every rule a
 * refused response broke. Never a stack trace.
 */
public record Problem(String type, String title, int status, String detail, String pointer, List<String> violations) {
    public static final String MEDIA_TYPE = "application/problem+json";
    /** Enough to act on; a response that omits a thousand children should not answer with a megabyte. */
    private static final int MAX_VIOLATIONS = 50;

    public Problem {
        violations = violations == null ? List.of() : capped(violations);
    }

    private static List<String> capped(List<String> violations) {
        if (violations.size() <= MAX_VIOLATIONS) {
            return List.copyOf(violations);
        }
        List<String> first = new ArrayList<>(violations.subList(0, MAX_VIOLATIONS));
        first.add("... and " + (violations.size() - MAX_VIOLATIONS) + " more");
        return List.copyOf(first);
    }

    public static Problem of(String type, String title, int status, String detail) {
        return new Problem(type, title, status, detail, null, List.of());
    }

    public byte[] toBytes() {
        ObjectNode out = Json.object();
        out.put("type", "urn:metahook:problem:" + type);
        out.put("title", title);
        out.put("status", status);
        out.put("detail", detail);
        if (pointer != null) {
            out.put("pointer", pointer);
        }
        if (!violations.isEmpty()) {
            violations.forEach(out.putArray("violations")::add);
        }
        return CanonicalJson.bytes(out);
    }
}
