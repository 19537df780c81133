package dev.metahook.api;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.time.Duration;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * What a decorator hook answers: labels and annotations to merge into the target (a removal deletes
 * the key), the target's status (left alone unless set), and the attachments. Immutable.
 */
public final class DecoratorResult {
    private final SyncResult attachments;
    private final Map<String, String> labels;
    private final Map<String, String> annotations;
    private final boolean finalized;

    private DecoratorResult(SyncResult attachments, Map<String, String> labels, Map<String, String> annotations,
                            boolean finalized) {
        this.attachments = attachments;
        this.labels = labels;
        this.annotations = annotations;
        this.finalized = finalized;
    }

    /** These attachments, and no others (deletions must be said, as in {@link SyncResult}). */
    public static DecoratorResult of(SyncResult attachments) {
        return new DecoratorResult(attachments, Map.of(), Map.of(), false);
    }

    public static DecoratorResult attaching(HasMetadata... attachments) {
        return of(SyncResult.of(attachments));
    }

    public static DecoratorResult attaching(Collection<? extends HasMetadata> attachments) {
        return of(SyncResult.of(attachments));
    }

    /** The observed attachments stay as last applied; only labels, annotations or status change. */
    public static DecoratorResult keepingAttachments() {
        return of(SyncResult.keepingObserved());
    }

    public DecoratorResult withLabel(String key, String value) {
        return new DecoratorResult(attachments, with(labels, key, value), annotations, finalized);
    }

    public DecoratorResult removingLabel(String key) {
        return new DecoratorResult(attachments, with(labels, key, null), annotations, finalized);
    }

    public DecoratorResult withAnnotation(String key, String value) {
        return new DecoratorResult(attachments, labels, with(annotations, key, value), finalized);
    }

    public DecoratorResult removingAnnotation(String key) {
        return new DecoratorResult(attachments, labels, with(annotations, key, null), finalized);
    }

    /** The target's whole status; without this call the status is left as it is. */
    public DecoratorResult withStatus(Object status) {
        return new DecoratorResult(attachments.withStatus(status), labels, annotations, finalized);
    }

    public DecoratorResult resyncAfter(Duration delay) {
        return new DecoratorResult(attachments.resyncAfter(delay), labels, annotations, finalized);
    }

    /** Cleanup is complete: only meaningful from a finalize hook. */
    public DecoratorResult finalized() {
        return new DecoratorResult(attachments, labels, annotations, true);
    }

    public SyncResult attachments() {
        return attachments;
    }

    /** Labels to set; a null value removes the label. */
    public Map<String, String> labels() {
        return labels;
    }

    public Map<String, String> annotations() {
        return annotations;
    }

    public Optional<Object> status() {
        return attachments.status();
    }

    public boolean isFinalized() {
        return finalized;
    }

    private static Map<String, String> with(Map<String, String> map, String key, String value) {
        Map<String, String> copy = new LinkedHashMap<>(map);
        copy.put(key, value);
        return Collections.unmodifiableMap(copy);
    }
}
