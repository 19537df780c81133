package dev.metahook.testkit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.metahook.api.RelatedRule;
import dev.metahook.internal.wire.Json;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A hook's answer as Metacontroller receives it: the status code and exact bytes, read back typed.
 * Children (a decorator's attachments) are read into their model classes by kind and name.
 */
public final class Answer {
    private final int code;
    private final Map<String, String> headers;
    private final byte[] body;
    private final JsonNode json;

    Answer(int code, Map<String, String> headers, byte[] body) {
        this.code = code;
        this.headers = Map.copyOf(headers);
        this.body = body.clone();
        this.json = body.length == 0 ? Json.object() : Json.parse(body);
    }

    /** The HTTP status code: 200, or 400, 404, 429, 500 with a problem. */
    public int code() {
        return code;
    }

    public boolean ok() {
        return code == 200;
    }

    /** The body exactly as sent. */
    public byte[] body() {
        return body.clone();
    }

    @Override
    public String toString() {
        return code + " " + new String(body, StandardCharsets.UTF_8);
    }

    /** The problem's detail when the answer is not 200. */
    public Optional<String> problem() {
        return ok() ? Optional.empty() : Optional.ofNullable(json.path("detail").textValue());
    }

    /** Every rule the guards found broken, for a refused answer. */
    public List<String> violations() {
        List<String> violations = new ArrayList<>();
        json.path("violations").forEach(violation -> violations.add(violation.asText()));
        return violations;
    }

    /** The {@code Retry-After} of a 429, in seconds. */
    public Optional<Duration> retryAfter() {
        return headers.entrySet().stream().filter(header -> header.getKey().equalsIgnoreCase("Retry-After"))
                .map(header -> Duration.ofSeconds(Long.parseLong(header.getValue()))).findFirst();
    }

    /** Every desired child (attachment) of this model class, in the answer's order. */
    public <T extends HasMetadata> List<T> children(Class<T> type) {
        String kind = HasMetadata.getKind(type);
        String apiVersion = HasMetadata.getApiVersion(type);
        List<T> children = new ArrayList<>();
        for (JsonNode child : objects()) {
            if (kind.equals(child.path("kind").asText()) && apiVersion.equals(child.path("apiVersion").asText())) {
                children.add(convert(child, type));
            }
        }
        return children;
    }

    /** The desired child of this class and name. */
    public <T extends HasMetadata> Optional<T> child(Class<T> type, String name) {
        return children(type).stream().filter(child -> name.equals(child.getMetadata().getName())).findFirst();
    }

    /** Every desired child, of any kind. */
    public List<GenericKubernetesResource> children() {
        List<GenericKubernetesResource> children = new ArrayList<>();
        objects().forEach(child -> children.add(convert(child, GenericKubernetesResource.class)));
        return children;
    }

    /** The status the answer sets, read as this type; empty when it sets none (a decorator leaving the target's alone). */
    public <S> Optional<S> status(Class<S> type) {
        JsonNode status = json.get("status");
        return status == null || status.isNull() ? Optional.empty() : Optional.of(convert(status, type));
    }

    /** Whether a finalize answer lets the parent go. */
    public boolean finalized() {
        return json.path("finalized").asBoolean(false);
    }

    /** When Metacontroller is asked to call again, if the answer says. */
    public Optional<Duration> resyncAfter() {
        JsonNode seconds = json.get("resyncAfterSeconds");
        if (seconds == null || !seconds.isNumber()) {
            return Optional.empty();
        }
        return Optional.of(Duration.ofMillis(seconds.decimalValue().multiply(BigDecimal.valueOf(1000)).longValue()));
    }

    /** A decorator's labels for its target; a null value removes the label. */
    public Map<String, String> labels() {
        return strings(json.path("labels"));
    }

    /** A decorator's annotations for its target; a null value removes the annotation. */
    public Map<String, String> annotations() {
        return strings(json.path("annotations"));
    }

    /** A customize answer's rules. */
    public List<RelatedRule> relatedRules() {
        List<RelatedRule> rules = new ArrayList<>();
        json.path("relatedResources").forEach(rule -> rules.add(convert(rule, RelatedRule.class)));
        return rules;
    }

    private JsonNode objects() {
        return json.has("attachments") ? json.path("attachments") : json.path("children");
    }

    private static Map<String, String> strings(JsonNode object) {
        Map<String, String> map = new LinkedHashMap<>();
        object.properties().iterator().forEachRemaining(field -> map.put(field.getKey(), field.getValue().isNull() ? null : field.getValue().asText()));
        return Collections.unmodifiableMap(map);
    }

    private static <T> T convert(JsonNode node, Class<T> type) {
        try {
            return Json.convert(node, type);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the answer's " + type.getSimpleName() + " cannot be read: " + e.getOriginalMessage(), e);
        }
    }
}
