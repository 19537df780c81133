package dev.metahook.api;

import java.util.AbstractList;
import java.util.AbstractMap;
import java.util.List;
import java.util.Map;
import java.util.RandomAccess;
import java.util.Set;

/**
 * An empty list or map that is written to the wire as {@code []} or {@code {}}. fabric8's models
 * leave every empty list and map out of their JSON, and their constructors and builders start every
 * one empty, so an empty field usually means "not set". Under Metacontroller's three-way merge a
 * missing field is removed if the last answer had it and left as it is otherwise (someone else's
 * value stays); an explicit empty is another write: {@code []} replaces a list without a merge key
 * (the rules of a Role) whoever wrote it, {@code {}} removes from a map the keys the last answer
 * had and keeps the others'. A CRD schema's default fills a missing field, not an empty one. Set
 * one on the model object itself:
 *
 * <pre>{@code
 * Role role = new RoleBuilder().withNewMetadata().withName("reader").endMetadata().build();
 * role.setRules(Explicit.emptyList());
 * }</pre>
 *
 * A builder copies what it is given into lists and maps of its own, so {@code withRules(Explicit.emptyList())}
 * is as empty as any other: set it on the built object. Both are immutable; anything else empty
 * is left out as before.
 */
public final class Explicit {
    private static final List<Object> EMPTY_LIST = new EmptyList();
    private static final Map<Object, Object> EMPTY_MAP = new EmptyMap();

    private Explicit() {
    }

    /** An empty list written as {@code []}. */
    @SuppressWarnings("unchecked")
    public static <T> List<T> emptyList() {
        return (List<T>) EMPTY_LIST;
    }

    /** An empty map written as {@code {}}. */
    @SuppressWarnings("unchecked")
    public static <K, V> Map<K, V> emptyMap() {
        return (Map<K, V>) EMPTY_MAP;
    }

    /** Whether a value is one of these explicit empties. */
    public static boolean isExplicitEmpty(Object value) {
        return value == EMPTY_LIST || value == EMPTY_MAP;
    }

    private static final class EmptyList extends AbstractList<Object> implements RandomAccess {
        @Override
        public Object get(int index) {
            throw new IndexOutOfBoundsException("an explicit empty list has no item " + index);
        }

        @Override
        public int size() {
            return 0;
        }
    }

    private static final class EmptyMap extends AbstractMap<Object, Object> {
        @Override
        public Set<Entry<Object, Object>> entrySet() {
            return Set.of();
        }
    }
}
