package dev.metahook.api;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;

/**
 * A base for typed parents: {@code apiVersion}, {@code kind}, {@code metadata}, {@code spec} and
 * {@code status}. Annotate the subclass with fabric8's {@code @Group}, {@code @Version} (and
 * {@code @Kind} if the class name differs); apiVersion and kind follow from them. A class of one's
 * own that implements {@link HasMetadata} works as well, if it carries the same
 * {@code @JsonDeserialize(using = JsonDeserializer.None.class)}: fabric8's interfaces otherwise send
 * it to a deserializer that looks the kind up among fabric8's own models.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonDeserialize(using = JsonDeserializer.None.class)
public abstract class CustomResource<S, T> implements HasMetadata {
    private String apiVersion = HasMetadata.getApiVersion(getClass());
    private String kind = HasMetadata.getKind(getClass());
    private ObjectMeta metadata = new ObjectMeta();
    private S spec;
    private T status;

    @Override
    public String getApiVersion() {
        return apiVersion;
    }

    @Override
    public void setApiVersion(String apiVersion) {
        this.apiVersion = apiVersion;
    }

    @Override
    public String getKind() {
        return kind;
    }

    public void setKind(String kind) {
        this.kind = kind;
    }

    @Override
    public ObjectMeta getMetadata() {
        return metadata;
    }

    @Override
    public void setMetadata(ObjectMeta metadata) {
        this.metadata = metadata;
    }

    public S getSpec() {
        return spec;
    }

    public void setSpec(S spec) {
        this.spec = spec;
    }

    public T getStatus() {
        return status;
    }

    public void setStatus(T status) {
        this.status = status;
    }
}
