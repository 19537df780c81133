package dev.metahook.e2e;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.api.ChildId;
import dev.metahook.internal.sim.Cluster;
import dev.metahook.internal.sim.Ids;
import dev.metahook.internal.wire.CanonicalJson;
import dev.metahook.internal.wire.GroupKey;
import dev.metahook.internal.wire.Json;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The simulator's cluster backed by a real API server, through the fabric8 client: Metacontroller's
 * writes go to the API server, whose validation, defaulting and garbage collector then judge them.
 * It sees the kinds it is told about, in one namespace.
 */
final class ApiServerCluster implements Cluster {
    private final KubernetesClient client;
    private final String namespace;
    private final List<String[]> kinds;
    private long writes;

    /** @param kinds {apiVersion, kind} pairs, parents and children */
    ApiServerCluster(KubernetesClient client, String namespace, List<String[]> kinds) {
        this.client = client;
        this.namespace = namespace;
        this.kinds = List.copyOf(kinds);
    }

    @Override
    public ObjectNode create(JsonNode object) {
        writes++;
        return tree(resources(Ids.of(object)).resource(resource(object)).create());
    }

    @Override
    public Optional<ObjectNode> get(ChildId ref) {
        GenericKubernetesResource found = resources(ref).withName(ref.name()).get();
        return Optional.ofNullable(found).map(ApiServerCluster::tree);
    }

    @Override
    public ObjectNode update(JsonNode object) {
        ObjectNode before = get(Ids.of(object)).orElseThrow();
        ObjectNode after = tree(resources(Ids.of(object)).resource(resource(object)).update());
        if (!before.at("/metadata/resourceVersion").equals(after.at("/metadata/resourceVersion"))) {
            writes++;
        }
        return after;
    }

    /** Writes the status; an object the garbage collector removed meanwhile has none to write (its owner went first). */
    @Override
    public void setStatus(ChildId ref, JsonNode status) {
        Optional<ObjectNode> found = get(ref);
        if (found.isEmpty()) {
            return;
        }
        ObjectNode current = found.get();
        JsonNode wanted = Json.parse(CanonicalJson.bytes(status));
        if (wanted.equals(current.get("status"))) {
            return;
        }
        current.set("status", wanted);
        try {
            resources(ref).resource(resource(current)).updateStatus();
        } catch (KubernetesClientException e) {
            if (e.getCode() == 404) {
                return;
            }
            throw e;
        }
        writes++;
    }

    @Override
    public void delete(ChildId ref) {
        resources(ref).withName(ref.name()).delete();
        writes++;
    }

    @Override
    public void addFinalizer(ChildId ref, String finalizer) {
        ObjectNode current = get(ref).orElseThrow();
        ArrayNode finalizers = current.withObjectProperty("metadata").withArray("finalizers");
        for (JsonNode present : finalizers) {
            if (present.asText().equals(finalizer)) {
                return;
            }
        }
        finalizers.add(finalizer);
        update(current);
    }

    @Override
    public void removeFinalizer(ChildId ref, String finalizer) {
        try {
            Optional<ObjectNode> current = get(ref);
            if (current.isEmpty()) {
                return;
            }
            ArrayNode finalizers = current.get().withObjectProperty("metadata").withArray("finalizers");
            for (int i = finalizers.size() - 1; i >= 0; i--) {
                if (finalizers.get(i).asText().equals(finalizer)) {
                    finalizers.remove(i);
                }
            }
            update(current.get());
        } catch (KubernetesClientException e) {
            if (e.getCode() != 404) {
                throw e;
            }
        }
    }

    @Override
    public List<ObjectNode> ownedBy(String uid) {
        List<ObjectNode> owned = new ArrayList<>();
        for (ObjectNode object : all()) {
            for (JsonNode owner : object.path("metadata").path("ownerReferences")) {
                if (uid.equals(owner.path("uid").asText()) && owner.path("controller").asBoolean(false)) {
                    owned.add(object);
                }
            }
        }
        return owned;
    }

    @Override
    public List<ObjectNode> all() {
        List<ObjectNode> all = new ArrayList<>();
        for (String[] kind : kinds) {
            resources(new ChildId(kind[0], kind[1], namespace, "")).list().getItems().forEach(item -> all.add(tree(item)));
        }
        return all;
    }

    @Override
    public long writes() {
        return writes;
    }

    private NonNamespaceOperation<GenericKubernetesResource,
            GenericKubernetesResourceList,
            Resource<GenericKubernetesResource>> resources(ChildId ref) {
        String apiVersion = ref.apiVersion();
        int slash = apiVersion.indexOf('/');
        ResourceDefinitionContext context = new ResourceDefinitionContext.Builder()
                .withGroup(slash < 0 ? "" : apiVersion.substring(0, slash))
                .withVersion(slash < 0 ? apiVersion : apiVersion.substring(slash + 1))
                .withKind(ref.kind()).withPlural(GroupKey.guessResource(ref.kind())).withNamespaced(true).build();
        return client.genericKubernetesResources(context).inNamespace(ref.namespace().isEmpty() ? namespace : ref.namespace());
    }


    private static GenericKubernetesResource resource(JsonNode object) {
        try {
            return Json.convert(object, GenericKubernetesResource.class);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static ObjectNode tree(GenericKubernetesResource resource) {
        return (ObjectNode) Json.parse(CanonicalJson.bytes(Json.tree(resource)));
    }
}
