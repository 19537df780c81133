package dev.metahook.api;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/** The parts a {@link Result} and a {@link DecoratorResult} share, and how each changes; one copy of the rules. */
record ResultParts(List<HasMetadata> objects, boolean keepsObserved, Object status, Duration resyncAfter,
                   Set<ChildId> deletions, boolean deletesUnlisted) {

    static ResultParts of(Collection<? extends HasMetadata> objects) {
        if (objects.stream().anyMatch(Objects::isNull)) {
            throw new IllegalArgumentException("a desired object is null");
        }
        return new ResultParts(List.copyOf(objects), false, null, null, Set.of(), false);
    }

    static ResultParts keepingObserved() {
        return new ResultParts(List.of(), true, null, null, Set.of(), false);
    }

    ResultParts withStatus(Object status) {
        if (status == null) {
            throw new IllegalArgumentException("status is null; leave withStatus out to keep the parent's status");
        }
        return new ResultParts(objects, keepsObserved, status, resyncAfter, deletions, deletesUnlisted);
    }

    ResultParts resyncAfter(Duration delay) {
        if (delay.isNegative()) {
            throw new IllegalArgumentException("resync delay is negative: " + delay);
        }
        return new ResultParts(objects, keepsObserved, status, delay, deletions, deletesUnlisted);
    }

    ResultParts deleting(HasMetadata... observed) {
        return deleting(Arrays.stream(observed).map(ChildId::of).toList());
    }

    ResultParts deleting(Collection<ChildId> observed) {
        Set<ChildId> all = new LinkedHashSet<>(deletions);
        all.addAll(observed);
        return new ResultParts(objects, keepsObserved, status, resyncAfter, Set.copyOf(all), deletesUnlisted);
    }

    ResultParts deletingUnlisted() {
        return new ResultParts(objects, keepsObserved, status, resyncAfter, deletions, true);
    }

    /**
     * The status as the type a chain's target asks for. Sound as long as no status is set (the usual
     * chain: {@code of}, then {@code deleting...}, then {@code withStatus} last) or the status type is
     * final, as a record is; {@code withStatus} itself always retypes soundly.
     */
    @SuppressWarnings("unchecked")
    <S> S typedStatus() {
        return (S) status;
    }
}
