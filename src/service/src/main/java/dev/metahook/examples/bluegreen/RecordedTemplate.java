package dev.metahook.examples.bluegreen;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import java.util.Map;
import java.util.Optional;

/**
 * The pod template a ReplicaSet was made from, as the original example records it: JSON in the
 * annotation {@value #ANNOTATION}, without the color label. The text is kept as found, so an
 * unchanged ReplicaSet is answered byte for byte as it was applied; new text has its keys sorted, as
 * Metacontroller (Go) sends the parent's template.
 */
record RecordedTemplate(PodTemplateSpec template, String json) {
    static final String ANNOTATION = "bluegreendeployments.ctl.enisoc.com/pod-template-json";

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
            .build();

    static RecordedTemplate of(PodTemplateSpec template) {
        try {
            Object tree = MAPPER.convertValue(template, Object.class);
            return new RecordedTemplate(template, MAPPER.writeValueAsString(tree));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a pod template could not be written as JSON", e);
        }
    }

    /** The ReplicaSet's recorded template; its own template minus the color label when the annotation is missing or unreadable. */
    static RecordedTemplate of(ReplicaSet replicaSet, String colorLabel) {
        String json = Optional.ofNullable(replicaSet.getMetadata().getAnnotations()).map(map -> map.get(ANNOTATION)).orElse(null);
        if (json != null) {
            try {
                return new RecordedTemplate(MAPPER.readValue(json, PodTemplateSpec.class), json);
            } catch (JsonProcessingException e) {
                // fall through: the ReplicaSet's own template is the next best record
            }
        }
        PodTemplateSpec own = replicaSet.getSpec() == null || replicaSet.getSpec().getTemplate() == null
                ? new PodTemplateSpec() : replicaSet.getSpec().getTemplate();
        Map<String, String> labels = own.getMetadata() == null ? null : own.getMetadata().getLabels();
        if (labels != null) {
            labels.remove(colorLabel);
        }
        return of(own);
    }

    boolean matches(PodTemplateSpec wanted) {
        return template.equals(wanted);
    }
}
