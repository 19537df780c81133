package dev.metahook.internal.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.api.ChildId;
import dev.metahook.internal.wire.Json;
import java.util.ArrayList;
import java.util.List;

/**
 * Another writer of the cluster (a decorator, a workload controller): armed, it changes every child
 * (or attachment) a sync or finalize request showed while the hook is answering, by an annotation of
 * its own, so that Metacontroller's update of any of them carries a stale resourceVersion and meets
 * the API server's 409 Conflict, as real runs meet it between a decorator and the workload
 * controllers. Otherwise it passes calls through.
 */
public final class ConcurrentWriter implements HookClient {
    /** The annotation the other writer sets; Metacontroller's three-way merge keeps it. */
    public static final String ANNOTATION = "sim.metahook.dev/concurrent-write";

    private final HookClient hooks;
    private final Cluster store;
    private boolean armed;
    private final List<ChildId> written = new ArrayList<>();

    ConcurrentWriter(HookClient hooks, Cluster store) {
        this.hooks = hooks;
        this.store = store;
    }

    /** The next sync or finalize call meets a concurrent write of the children it shows. */
    public void arm() {
        armed = true;
    }

    /** The children written so far. */
    public List<ChildId> written() {
        return List.copyOf(written);
    }

    @Override
    public Reply call(String hook, byte[] body) {
        Reply reply = hooks.call(hook, body);
        if (armed && !hook.equals("customize")) {
            armed = false;
            JsonNode request = Json.parse(body);
            JsonNode children = request.has("attachments") ? request.path("attachments") : request.path("children");
            children.forEach(group -> group.forEach(this::touch));
        }
        return reply;
    }

    private void touch(JsonNode child) {
        ChildId ref = Ids.of(child);
        store.get(ref).filter(stored -> !stored.path("metadata").hasNonNull("deletionTimestamp")).ifPresent(stored -> {
            ObjectNode changed = stored.deepCopy();
            changed.withObjectProperty("metadata").withObjectProperty("annotations").put(ANNOTATION, Integer.toString(written.size() + 1));
            store.update(changed);
            written.add(ref);
        });
    }
}
