package dev.metahook.api;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Optional;

/** The children (or attachments) Metacontroller observed for one parent: objects the answer owns. */
public interface ObservedChildren extends ObservedObjects {

    /**
     * The child as Metacontroller last applied it (its {@code last-applied-configuration}
     * annotation), or, without that annotation, as observed minus status and server-managed metadata:
     * the form to return when a child must stay exactly as it is.
     */
    <T extends HasMetadata> Optional<T> lastApplied(Class<T> type, String name);
}
