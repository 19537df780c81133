package dev.metahook.engine;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.api.ObservedChildren;
import dev.metahook.wire.GroupKey;
import dev.metahook.wire.Json;
import dev.metahook.wire.MalformedRequestException;
import dev.metahook.wire.ObjectMap;
import dev.metahook.wire.ObservedObject;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The observed children of one request, converted to typed objects only on demand. One view lives
 * for one request, so nothing here outlives the request body.
 */
final class ObservedView implements ObservedChildren {
    private final ObjectMap children;
    private final String parentNamespace;
    private final String field;

    ObservedView(ObjectMap children, String parentNamespace, String field) {
        this.children = children;
        this.parentNamespace = parentNamespace == null ? "" : parentNamespace;
        this.field = field;
    }

    @Override
    public <T extends HasMetadata> List<T> all(Class<T> type) {
        GroupKey key = groupOf(type);
        List<T> all = new ArrayList<>();
        children.group(key).forEach((objectKey, object) -> all.add(convert(object, type, key, objectKey)));
        return all;
    }

    @Override
    public <T extends HasMetadata> Optional<T> get(Class<T> type, String name) {
        return get(type, parentNamespace, name);
    }

    @Override
    public <T extends HasMetadata> Optional<T> get(Class<T> type, String namespace, String name) {
        GroupKey key = groupOf(type);
        return find(key, namespace, name).map(object -> convert(object, type, key, name));
    }

    @Override
    public List<GenericKubernetesResource> all(String apiVersion, String kind) {
        GroupKey key = new GroupKey(kind, apiVersion);
        List<GenericKubernetesResource> all = new ArrayList<>();
        children.group(key).forEach((objectKey, object) ->
                all.add(convert(object, GenericKubernetesResource.class, key, objectKey)));
        return all;
    }

    @Override
    public Optional<GenericKubernetesResource> get(String apiVersion, String kind, String name) {
        GroupKey key = new GroupKey(kind, apiVersion);
        return find(key, parentNamespace, name).map(object -> convert(object, GenericKubernetesResource.class, key, name));
    }

    @Override
    public <T extends HasMetadata> Optional<T> lastApplied(Class<T> type, String name) {
        GroupKey key = groupOf(type);
        return find(key, parentNamespace, name)
                .map(object -> convert(LastApplied.of(object, parentNamespace.isEmpty() ? null : parentNamespace), type, key, name));
    }

    @Override
    public int size() {
        return children.size();
    }

    /** Looks the child up by the name and namespace its key carries, so only the one found is parsed. */
    private Optional<ObjectNode> find(GroupKey key, String namespace, String name) {
        String wanted = namespace == null ? "" : namespace;
        return children.entries(key).values().stream()
                .filter(object -> name.equals(object.name()) && wanted.equals(object.namespaceOr(parentNamespace)))
                .map(ObservedObject::tree)
                .filter(object -> name.equals(object.path("metadata").path("name").asText()))
                .findFirst();
    }

    private static GroupKey groupOf(Class<? extends HasMetadata> type) {
        if (type == GenericKubernetesResource.class) {
            throw new IllegalArgumentException("GenericKubernetesResource has no kind of its own; use all(apiVersion, kind)");
        }
        return new GroupKey(HasMetadata.getKind(type), HasMetadata.getApiVersion(type));
    }

    private <T> T convert(ObjectNode object, Class<T> type, GroupKey key, String objectKey) {
        try {
            return Json.convert(object, type);
        } catch (JsonProcessingException e) {
            String pointer = "/" + field + "/" + key.toString().replace("/", "~1") + "/" + objectKey.replace("/", "~1");
            throw new MalformedRequestException(pointer, pointer + ": cannot be read as " + type.getSimpleName() + ": "
                    + e.getOriginalMessage());
        }
    }
}
