package dev.metahook.internal.wire;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A DecoratorController sync or finalize response. Labels and annotations are merged into the target,
 * a null value deleting that key; a null {@code status} leaves the target's status alone.
 */
public record DecoratorResponse(Map<String, String> labels, Map<String, String> annotations, ObjectNode status,
                                List<ObjectNode> attachments, BigDecimal resyncAfterSeconds, Boolean finalized) {

    public DecoratorResponse {
        labels = Collections.unmodifiableMap(new TreeMap<>(labels));
        annotations = Collections.unmodifiableMap(new TreeMap<>(annotations));
        attachments = List.copyOf(attachments);
    }

    public ObjectNode toJson() {
        ObjectNode out = Json.object();
        if (!labels.isEmpty()) {
            ObjectNode node = out.putObject("labels");
            labels.forEach(node::put);
        }
        if (!annotations.isEmpty()) {
            ObjectNode node = out.putObject("annotations");
            annotations.forEach(node::put);
        }
        if (status != null) {
            out.set("status", status);
        }
        out.putArray("attachments").addAll(attachments);
        if (resyncAfterSeconds != null && resyncAfterSeconds.signum() > 0) {
            out.put("resyncAfterSeconds", resyncAfterSeconds);
        }
        if (finalized != null) {
            out.put("finalized", finalized);
        }
        return out;
    }
}
