package dev.metahook.internal.wire;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.util.List;

/**
 * A CompositeController sync or finalize response. {@code status} replaces the parent's whole status
 * and is never null; {@code children} is the complete desired set; {@code resyncAfterSeconds} is
 * written only when positive; {@code finalized} only on finalize calls.
 */
public record CompositeResponse(ObjectNode status, List<ObjectNode> children, BigDecimal resyncAfterSeconds,
                                Boolean finalized) {

    public CompositeResponse {
        status = status == null ? Json.object() : status;
        children = List.copyOf(children);
    }

    public ObjectNode toJson() {
        ObjectNode out = Json.object();
        out.set("status", status);
        out.putArray("children").addAll(children);
        if (resyncAfterSeconds != null && resyncAfterSeconds.signum() > 0) {
            out.put("resyncAfterSeconds", resyncAfterSeconds);
        }
        if (finalized != null) {
            out.put("finalized", finalized);
        }
        return out;
    }
}
