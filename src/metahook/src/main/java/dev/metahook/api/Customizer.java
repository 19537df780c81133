package dev.metahook.api;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.List;

/**
 * A controller whose sync needs objects it does not own (a source ConfigMap, the namespaces to copy it
 * to): the {@code customize} hook answers which, and sync then finds them in {@link Context#related()}.
 * The rules may depend only on the parent (Metacontroller caches the answer). The context of a
 * customize call carries no children and no related objects: Metacontroller sends only the parent.
 */
public interface Customizer<P extends HasMetadata> {

    List<RelatedRule> customize(P parent, Context context);
}
