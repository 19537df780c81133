package dev.metahook.internal.engine;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Values worked out once and kept for the calls that come with the same key, within a budget: at
 * {@code capacity} entries or {@code capacityWeight} of weight it starts over, and an entry heavier
 * than an eighth of the budget is never kept. The weight of an entry is the heap it keeps, estimated
 * as the memory budget estimates a call's ({@link dev.metahook.internal.wire.JsonCensus}), never a text's
 * length: the caches are part of the heap the budget leaves to the service. Read without a lock;
 * written under one.
 */
final class BoundedCache<K, V> {
    private final int capacity;
    private final long capacityWeight;
    private final Map<K, V> entries = new ConcurrentHashMap<>();
    private long weight;

    BoundedCache(int capacity, long capacityWeight) {
        this.capacity = capacity;
        this.capacityWeight = capacityWeight;
    }

    /** The value kept for {@code key}, or null. */
    V get(K key) {
        return entries.get(key);
    }

    /** Keeps {@code value} for {@code key}, which weighs {@code entryWeight}, when the budget allows. */
    synchronized void keep(K key, V value, long entryWeight) {
        if (entryWeight > capacityWeight / 8) {
            return;
        }
        if (entries.size() >= capacity || weight + entryWeight > capacityWeight) {
            entries.clear();
            weight = 0;
        }
        if (entries.putIfAbsent(key, value) == null) {
            weight += entryWeight;
        }
    }

    /** The weight of the values kept. */
    synchronized long weight() {
        return weight;
    }

    /** How many values are kept. */
    int size() {
        return entries.size();
    }
}
