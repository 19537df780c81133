package dev.metahook.internal.wire;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/** A customize response: the rules that select the related objects sync and finalize will see. */
public record CustomizeResponse(List<ObjectNode> relatedResources) {

    public CustomizeResponse {
        relatedResources = List.copyOf(relatedResources);
    }

    public ObjectNode toJson() {
        ObjectNode out = Json.object();
        out.putArray("relatedResources").addAll(relatedResources);
        return out;
    }
}
