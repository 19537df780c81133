package dev.metahook.internal.engine;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.api.ObservedChildren;
import dev.metahook.internal.wire.GroupKey;
import dev.metahook.internal.wire.Json;
import dev.metahook.internal.wire.MalformedRequestException;
import dev.metahook.internal.wire.ObjectMap;
import dev.metahook.internal.wire.ObservedObject;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The observed children (or related objects) of one request, converted to typed objects only on
 * demand. One view lives for one request, so nothing here outlives the request body.
 */
final class ObservedView implements ObservedChildren {
    private final ObjectMap children;
    private final String parentNamespace;
    private final String keyNamespace;
    private final String field;

    /**
     * @param keyNamespace the namespace of an object whose key has none: the parent's for v1 keys, none
     *                     (cluster-scoped) for v2 keys of related objects
     */
    ObservedView(ObjectMap children, String parentNamespace, String keyNamespace, String field) {
        this.children = children;
        this.parentNamespace = parentNamespace;
        this.keyNamespace = keyNamespace;
        this.field = field;
    }

    /** The children of a request, whose v1 and v2 keys both place a namespaced child in its parent's namespace. */
    static ObservedView children(ObjectMap children, String parentNamespace, String field) {
        return new ObservedView(children, parentNamespace, parentNamespace, field);
    }

    @Override
    public <T extends HasMetadata> List<T> all(Class<T> type) {
        GroupKey key = groupOf(type);
        List<T> all = new ArrayList<>();
        children.entries(key).values().forEach(object -> all.add(read(object, type)));
        return all;
    }

    @Override
    public <T extends HasMetadata> Optional<T> get(Class<T> type, String name) {
        return findByName(groupOf(type), name).map(object -> read(object, type));
    }

    @Override
    public <T extends HasMetadata> Optional<T> get(Class<T> type, String namespace, String name) {
        GroupKey key = groupOf(type);
        return find(key, namespace, name).map(object -> read(object, type));
    }

    @Override
    public List<GenericKubernetesResource> all(String apiVersion, String kind) {
        GroupKey key = new GroupKey(kind, apiVersion);
        List<GenericKubernetesResource> all = new ArrayList<>();
        children.entries(key).values().forEach(object -> all.add(read(object, GenericKubernetesResource.class)));
        return all;
    }

    @Override
    public Optional<GenericKubernetesResource> get(String apiVersion, String kind, String name) {
        return findByName(new GroupKey(kind, apiVersion), name).map(object -> read(object, GenericKubernetesResource.class));
    }

    @Override
    public Optional<GenericKubernetesResource> get(String apiVersion, String kind, String namespace, String name) {
        GroupKey key = new GroupKey(kind, apiVersion);
        return find(key, namespace, name).map(object -> read(object, GenericKubernetesResource.class));
    }

    @Override
    public <T extends HasMetadata> Optional<T> lastApplied(Class<T> type, String name) {
        GroupKey key = groupOf(type);
        return findByName(key, name)
                .map(object -> convert(LastApplied.of(object, parentNamespace), type, object));
    }

    @Override
    public int size() {
        return children.size();
    }

    /** By name alone: in the parent's namespace, or else cluster-scoped (a kind is one or the other). */
    private Optional<ObservedObject> findByName(GroupKey key, String name) {
        Optional<ObservedObject> found = find(key, parentNamespace, name);
        return found.isPresent() || parentNamespace.isEmpty() ? found : find(key, "", name);
    }

    /** Looks the object up by the name and namespace its key carries, so only the one found is read. */
    private Optional<ObservedObject> find(GroupKey key, String namespace, String name) {
        String wanted = namespace == null ? "" : namespace;
        return children.entries(key).values().stream()
                .filter(object -> name.equals(object.name()) && wanted.equals(object.namespaceOr(keyNamespace)))
                .findFirst();
    }

    /**
     * Reads one child as its type and checks it is what its place in the request says (kind,
     * apiVersion, name); when it is not, its tree says precisely what is wrong.
     */
    private <T extends HasMetadata> T read(ObservedObject object, Class<T> type) {
        T typed;
        try {
            typed = object.read(type);
        } catch (IOException e) {
            object.tree();
            throw unreadable(object, type, e);
        }
        String name = typed.getMetadata() == null ? null : typed.getMetadata().getName();
        if (typed.getMetadata() != null) {
            ObjectChecks.timestamps(typed.getMetadata(), pointer(object));
        }
        if (!object.fits(typed.getApiVersion(), typed.getKind(), name)) {
            object.tree();
            String pointer = pointer(object);
            throw new MalformedRequestException(pointer + "/metadata/name", pointer + "/metadata/name: is " + name
                    + ", but its key " + object.key() + " says " + object.keyName());
        }
        return typed;
    }

    private <T> T convert(ObjectNode tree, Class<T> type, ObservedObject object) {
        try {
            return Json.convert(tree, type);
        } catch (JsonProcessingException e) {
            throw unreadable(object, type, e);
        }
    }

    private MalformedRequestException unreadable(ObservedObject object, Class<?> type, IOException e) {
        String pointer = pointer(object) + (e instanceof JsonMappingException mapping ? ObjectChecks.below(mapping) : "");
        String detail = e instanceof JsonProcessingException processing ? processing.getOriginalMessage() : e.getMessage();
        return new MalformedRequestException(pointer, pointer + ": cannot be read as " + type.getSimpleName() + ": " + detail);
    }

    private String pointer(ObservedObject object) {
        return "/" + field + "/" + escape(object.group().toString()) + "/" + escape(object.key());
    }

    private static String escape(String token) {
        return token.replace("~", "~0").replace("/", "~1");
    }

    private static GroupKey groupOf(Class<? extends HasMetadata> type) {
        if (type == GenericKubernetesResource.class) {
            throw new IllegalArgumentException("GenericKubernetesResource has no kind of its own; use all(apiVersion, kind)");
        }
        return new GroupKey(HasMetadata.getKind(type), HasMetadata.getApiVersion(type));
    }
}
